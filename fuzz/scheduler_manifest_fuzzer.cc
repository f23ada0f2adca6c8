// Fuzzes the config manager's kube-scheduler static pod manifest handling:
// inspect, then edit (what it does on a control-plane node), then inspect
// the edited manifest, which must still parse and carry the marker. The
// input is parsed once (ParseYamlMap, which InspectManifest and
// EditManifest of a text start with) for both the inspection and the edit:
// inspecting only reads the tree.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "config-manager/scheduler_manifest.h"
#include "config-manager/yaml_text.h"

namespace cm = gcushare::config_manager;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gcushare::StatusOr<YAML::Node> pod = cm::ParseYamlMap(text, "fuzz manifest");
  if (!pod.ok()) return 0;
  gcushare::StatusOr<cm::ManifestFacts> facts =
      cm::InspectManifest(*pod, "fuzz manifest");
  cm::ManifestEdit edit;
  edit.config_path = "/etc/kubernetes/gcushare/scheduler-config.yaml";
  edit.mount_dir = "/etc/kubernetes/gcushare";
  edit.marker = "fuzz";
  gcushare::StatusOr<std::string> edited =
      cm::EditManifest(*pod, "fuzz manifest", edit);
  if (!facts.ok() || !edited.ok()) return 0;
  gcushare::StatusOr<cm::ManifestFacts> after =
      cm::InspectManifest(*edited, "edited manifest");
  if (!after.ok() || !after->has_marker) {
    std::fprintf(stderr, "edited manifest does not inspect: %s\n%s\n",
                 after.ok() ? "no marker" : after.status().ToString().c_str(),
                 edited->c_str());
    __builtin_trap();
  }
  return 0;
}
