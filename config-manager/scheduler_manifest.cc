#include "config-manager/scheduler_manifest.h"

#include <yaml-cpp/yaml.h>

#include <exception>
#include <optional>
#include <string>
#include <utility>

#include "config-manager/yaml_text.h"

namespace gcushare::config_manager {
namespace {

std::string Str(const YAML::Node& node) {
  return node && node.IsScalar() ? node.Scalar() : "";
}

// The kube-scheduler container: named kube-scheduler, else the first whose
// command runs kube-scheduler.
StatusOr<YAML::Node> SchedulerContainer(const YAML::Node& pod,
                                        std::string_view what) {
  if (Str(pod["kind"]) != "Pod") {
    return InvalidArgumentError(std::string(what) + ": kind is not Pod");
  }
  const YAML::Node containers = pod["spec"]["containers"];
  if (!containers || !containers.IsSequence()) {
    return InvalidArgumentError(std::string(what) +
                                ": spec.containers is missing");
  }
  for (const YAML::Node& c : containers) {
    if (Str(c["name"]) == "kube-scheduler") return c;
  }
  for (const YAML::Node& c : containers) {
    const YAML::Node command = c["command"];
    if (command && command.IsSequence() && command.size() > 0 &&
        Str(command[0]).find("kube-scheduler") != std::string::npos) {
      return c;
    }
  }
  return InvalidArgumentError(std::string(what) +
                              ": no kube-scheduler container");
}

// InvalidArgument unless every entry of the container's volumeMounts and
// of spec.volumes is a map: kubelet rejects such a manifest, and an edit
// would add to it a mount that the next inspection cannot read.
Status CheckMountLists(const YAML::Node& pod, const YAML::Node& container,
                       std::string_view what) {
  const std::pair<const char*, YAML::Node> lists[] = {
      {"volumeMounts", container["volumeMounts"]},
      {"spec.volumes", pod["spec"]["volumes"]}};
  for (const auto& [name, list] : lists) {
    if (!list || list.IsNull()) continue;
    if (!list.IsSequence()) {
      return InvalidArgumentError(std::string(what) + ": " + name +
                                  " is not a list");
    }
    for (size_t i = 0; i < list.size(); ++i) {
      if (!list[i].IsMap()) {
        return InvalidArgumentError(std::string(what) + ": " + name + "[" +
                                    std::to_string(i) + "] is not a map");
      }
    }
  }
  return OkStatus();
}

// The value of --<name> in command or args ("--name=value" or "--name
// value"); nullopt when absent. A bare "--name" ending its list has the
// value "" (present: an edit must not add a second one, which the bare
// one would take as its value; found by //fuzz:scheduler_manifest_fuzzer).
std::optional<std::string> FlagValue(const YAML::Node& container,
                                     const std::string& name) {
  const std::string eq = "--" + name + "=";
  const std::string bare = "--" + name;
  for (const char* list : {"command", "args"}) {
    const YAML::Node items = container[list];
    if (!items || !items.IsSequence()) continue;
    for (size_t i = 0; i < items.size(); ++i) {
      std::string item = Str(items[i]);
      if (item.rfind(eq, 0) == 0) return item.substr(eq.size());
      if (item == bare) {
        return i + 1 < items.size() ? Str(items[i + 1]) : std::string();
      }
    }
  }
  return std::nullopt;
}

bool HasPrefixDir(const std::string& path, const std::string& dir) {
  if (dir.empty()) return false;
  if (path == dir) return true;
  std::string d = dir;
  if (d.back() != '/') d += '/';
  return path.rfind(d, 0) == 0;
}

// Maps a path inside the container to the host through the hostPath
// mounts (longest mountPath wins); "" when no hostPath mount covers it.
// A mount without a name names no volume, and a hostPath that is not a map
// has no path (kubelet refuses both; found by
// //fuzz:scheduler_manifest_fuzzer: a nameless mount matched a nameless
// volume whose hostPath was a string, and reading its path threw).
std::string HostPathOf(const YAML::Node& pod, const YAML::Node& container,
                       const std::string& path) {
  std::string best_mount, best_host;
  const YAML::Node mounts = container["volumeMounts"];
  if (!mounts || !mounts.IsSequence()) return "";
  const YAML::Node volumes = pod["spec"]["volumes"];
  if (!volumes || !volumes.IsSequence()) return "";
  for (const YAML::Node& m : mounts) {
    std::string mount_path = Str(m["mountPath"]);
    const std::string name = Str(m["name"]);
    if (name.empty() || !HasPrefixDir(path, mount_path) ||
        mount_path.size() <= best_mount.size()) {
      continue;
    }
    for (const YAML::Node& v : volumes) {
      if (Str(v["name"]) == name && v["hostPath"] && v["hostPath"].IsMap()) {
        best_mount = mount_path;
        best_host = Str(v["hostPath"]["path"]);
      }
    }
  }
  if (best_mount.empty()) return "";
  return best_host + path.substr(best_mount.size());
}

}  // namespace

StatusOr<ManifestFacts> InspectManifest(std::string_view text,
                                        std::string_view what) {
  GCUSHARE_ASSIGN_OR_RETURN(YAML::Node pod, ParseYamlMap(text, what));
  return InspectManifest(pod, what);
}

StatusOr<ManifestFacts> InspectManifest(const YAML::Node& pod,
                                        std::string_view what) {
  try {
    GCUSHARE_ASSIGN_OR_RETURN(YAML::Node c, SchedulerContainer(pod, what));
    GCUSHARE_RETURN_IF_ERROR(CheckMountLists(pod, c, what));
    ManifestFacts facts;
    facts.image = Str(c["image"]);
    facts.config_path = FlagValue(c, "config").value_or("");
    if (!facts.config_path.empty()) {
      facts.config_host_path = HostPathOf(pod, c, facts.config_path);
      if (facts.config_host_path.empty()) {
        return InvalidArgumentError(
            std::string(what) + ": --config=" + facts.config_path +
            " is not on a hostPath volume; cannot edit it from the host");
      }
    }
    facts.kubeconfig = FlagValue(c, "kubeconfig").value_or("");
    std::string leader = FlagValue(c, "leader-elect").value_or("true");
    facts.leader_elect = leader != "false";
    const YAML::Node annotations = pod["metadata"]["annotations"];
    facts.has_marker = annotations && annotations.IsMap() &&
                       annotations[std::string(kMarkerAnnotation)].IsDefined();
    return facts;
  } catch (const std::exception& e) {
    return InvalidArgumentError(std::string(what) + ": " + e.what());
  }
}

StatusOr<std::string> EditManifest(std::string_view original,
                                   std::string_view what,
                                   const ManifestEdit& edit) {
  GCUSHARE_ASSIGN_OR_RETURN(YAML::Node pod, ParseYamlMap(original, what));
  return EditManifest(pod, what, edit);
}

StatusOr<std::string> EditManifest(YAML::Node pod, std::string_view what,
                                   const ManifestEdit& edit) {
  try {
    GCUSHARE_ASSIGN_OR_RETURN(YAML::Node c, SchedulerContainer(pod, what));
    GCUSHARE_RETURN_IF_ERROR(CheckMountLists(pod, c, what));
    if (!edit.config_path.empty()) {
      if (FlagValue(c, "config")) {
        return InvalidArgumentError(std::string(what) +
                                    ": already has --config");
      }
      // Flags go where kubeadm puts them: after the command, else in args.
      const char* list =
          c["command"] && c["command"].IsSequence() && c["command"].size() > 1
              ? "command"
              : "args";
      if (!c[list] || !c[list].IsSequence()) {
        c[list] = YAML::Node(YAML::NodeType::Sequence);
      }
      c[list].push_back("--config=" + edit.config_path);

      YAML::Node mount(YAML::NodeType::Map);
      mount["mountPath"] = edit.mount_dir;
      mount["name"] = std::string(kConfigVolumeName);
      mount["readOnly"] = true;
      if (!c["volumeMounts"] || !c["volumeMounts"].IsSequence()) {
        c["volumeMounts"] = YAML::Node(YAML::NodeType::Sequence);
      }
      c["volumeMounts"].push_back(mount);

      YAML::Node volume(YAML::NodeType::Map);
      volume["hostPath"]["path"] = edit.mount_dir;
      volume["hostPath"]["type"] = "DirectoryOrCreate";
      volume["name"] = std::string(kConfigVolumeName);
      YAML::Node spec = pod["spec"];
      if (!spec["volumes"] || !spec["volumes"].IsSequence()) {
        spec["volumes"] = YAML::Node(YAML::NodeType::Sequence);
      }
      spec["volumes"].push_back(volume);
    }
    YAML::Node metadata = pod["metadata"];
    if (!metadata["annotations"] || !metadata["annotations"].IsMap()) {
      metadata["annotations"] = YAML::Node(YAML::NodeType::Map);
    }
    metadata["annotations"][std::string(kMarkerAnnotation)] =
        StringNode(edit.marker);
    return EmitYamlToWrite(pod, what);
  } catch (const std::exception& e) {
    return InvalidArgumentError(std::string(what) + ": " + e.what());
  }
}

}  // namespace gcushare::config_manager
