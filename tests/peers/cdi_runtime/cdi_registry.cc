#include "tests/peers/cdi_runtime/cdi_registry.h"

#include <utility>

#include "cdi/names.h"
#include "cdi/spec_file.h"

namespace gcushare::peers::cdi_runtime {
namespace {

using nlohmann::json;

std::vector<std::string> Strings(const json& node, const char* key) {
  std::vector<std::string> out;
  if (node.contains(key) && node[key].is_array()) {
    for (const json& item : node[key]) out.push_back(item.get<std::string>());
  }
  return out;
}

std::string String(const json& node, const char* key) {
  if (!node.contains(key) || node[key].is_null()) return "";
  return node[key].get<std::string>();
}

template <typename T>
std::optional<T> Number(const json& node, const char* key) {
  if (!node.contains(key) || node[key].is_null()) return std::nullopt;
  return node[key].get<T>();
}

cdi::ContainerEdits EditsFromJsonOrThrow(const json& tree) {
  cdi::ContainerEdits edits;
  if (!tree.is_object()) return edits;
  edits.env = Strings(tree, "env");
  if (tree.contains("deviceNodes") && tree["deviceNodes"].is_array()) {
    for (const json& node : tree["deviceNodes"]) {
      cdi::DeviceNode device;
      device.path = String(node, "path");
      device.host_path = String(node, "hostPath");
      device.type = String(node, "type");
      device.major = Number<int64_t>(node, "major");
      device.minor = Number<int64_t>(node, "minor");
      device.file_mode = Number<uint32_t>(node, "fileMode");
      device.permissions = String(node, "permissions");
      device.uid = Number<uint32_t>(node, "uid");
      device.gid = Number<uint32_t>(node, "gid");
      edits.device_nodes.push_back(std::move(device));
    }
  }
  if (tree.contains("mounts") && tree["mounts"].is_array()) {
    for (const json& node : tree["mounts"]) {
      cdi::Mount mount;
      mount.host_path = String(node, "hostPath");
      mount.container_path = String(node, "containerPath");
      mount.type = String(node, "type");
      mount.options = Strings(node, "options");
      edits.mounts.push_back(std::move(mount));
    }
  }
  if (tree.contains("hooks") && tree["hooks"].is_array()) {
    for (const json& node : tree["hooks"]) {
      cdi::Hook hook;
      hook.hook_name = String(node, "hookName");
      hook.path = String(node, "path");
      hook.args = Strings(node, "args");
      hook.env = Strings(node, "env");
      hook.timeout = Number<int>(node, "timeout");
      edits.hooks.push_back(std::move(hook));
    }
  }
  if (tree.contains("additionalGids") && tree["additionalGids"].is_array()) {
    for (const json& gid : tree["additionalGids"]) {
      edits.additional_gids.push_back(gid.get<uint32_t>());
    }
  }
  return edits;
}

}  // namespace

StatusOr<cdi::ContainerEdits> EditsFromJson(const nlohmann::json& edits) {
  try {
    return EditsFromJsonOrThrow(edits);
  } catch (const json::exception& e) {
    return InvalidArgumentError(std::string("containerEdits: ") + e.what());
  }
}

CdiRegistry LoadCdiRegistry(const std::vector<std::string>& dirs) {
  CdiRegistry registry;
  std::map<std::string, bool> conflicts;
  for (size_t priority = 0; priority < dirs.size(); ++priority) {
    StatusOr<std::vector<std::string>> files =
        cdi::FindSpecFiles(dirs[priority]);
    if (!files.ok()) {
      registry.errors.push_back(files.status().message());
      continue;
    }
    for (const std::string& path : *files) {
      StatusOr<cdi::LoadedSpec> loaded = cdi::LoadSpecFile(path);
      if (!loaded.ok()) {
        registry.errors.push_back("failed to load CDI Spec " +
                                  loaded.status().message());
        continue;
      }
      auto spec = std::make_shared<RegistrySpec>();
      spec->path = path;
      spec->priority = static_cast<int>(priority);
      StatusOr<cdi::ContainerEdits> spec_edits =
          EditsFromJson(loaded->tree.value("containerEdits", json::object()));
      if (!spec_edits.ok()) {
        registry.errors.push_back(path + ": " + spec_edits.status().message());
        continue;
      }
      spec->edits = std::move(*spec_edits);
      std::vector<std::pair<std::string, cdi::ContainerEdits>> devices;
      bool bad = false;
      for (const json& device : loaded->tree["devices"]) {
        StatusOr<cdi::ContainerEdits> edits =
            EditsFromJson(device.value("containerEdits", json::object()));
        if (!edits.ok()) {
          registry.errors.push_back(path + ": " + edits.status().message());
          bad = true;
          break;
        }
        devices.emplace_back(
            cdi::QualifiedName(loaded->kind, device["name"].get<std::string>()),
            std::move(*edits));
      }
      if (bad) continue;
      for (auto& [name, edits] : devices) {
        auto old = registry.devices.find(name);
        if (old != registry.devices.end()) {
          if (old->second.spec->priority == spec->priority) {
            std::string error = "conflicting device \"";
            error += name;
            error += "\" (specs \"";
            error += path;
            error += "\", \"";
            error += old->second.spec->path;
            error += "\")";
            registry.errors.push_back(std::move(error));
            conflicts[name] = true;
            continue;
          }
          // Only a higher priority can come later: it replaces.
        }
        registry.devices[name] = RegistryDevice{spec, std::move(edits)};
      }
    }
  }
  for (const auto& [name, unused] : conflicts) registry.devices.erase(name);
  return registry;
}

}  // namespace gcushare::peers::cdi_runtime
