// Fuzzes the config manager's scheduler configuration editing: adding our
// extender entry to an existing KubeSchedulerConfiguration, after which
// the result must parse and carry our entry. The input is parsed once
// (ParseYamlMap, which HasOurEntry and AddOurExtender of a text start
// with): emitted and searched (both only read the tree), then edited.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "config-manager/scheduler_config.h"
#include "config-manager/yaml_text.h"

namespace cm = gcushare::config_manager;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gcushare::StatusOr<YAML::Node> map = cm::ParseYamlMap(text, "fuzz config");
  if (!map.ok()) return 0;
  (void)cm::EmitYaml(*map);
  (void)cm::HasOurEntry(*map);
  cm::ExtenderEntryOptions options;
  options.url_prefix = cm::ExtenderUrl("127.0.0.1", 32766);
  gcushare::StatusOr<std::string> edited =
      cm::AddOurExtender(*map, "fuzz config", options);
  if (!edited.ok()) return 0;
  // HasOurEntry parses the text as ParseYamlMap does and is false when that
  // fails: one parse checks both that the result parses and holds our entry.
  if (!cm::HasOurEntry(*edited)) __builtin_trap();
  return 0;
}
