#include "cdi/spec.h"

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;

void PutString(Json& object, const char* key, const std::string& value) {
  if (!value.empty()) object[key] = value;
}

void PutStrings(Json& object, const char* key,
                const std::vector<std::string>& values) {
  if (!values.empty()) object[key] = values;
}

template <typename T>
void PutOptional(Json& object, const char* key, const std::optional<T>& value) {
  if (value.has_value()) object[key] = *value;
}

void PutAnnotations(Json& object,
                    const std::map<std::string, std::string>& annotations) {
  if (!annotations.empty()) object["annotations"] = annotations;
}

Json NodeToJson(const DeviceNode& node) {
  Json json = Json::object();
  PutString(json, "path", node.path);
  PutString(json, "hostPath", node.host_path);
  PutString(json, "type", node.type);
  PutOptional(json, "major", node.major);
  PutOptional(json, "minor", node.minor);
  PutOptional(json, "fileMode", node.file_mode);
  PutString(json, "permissions", node.permissions);
  PutOptional(json, "uid", node.uid);
  PutOptional(json, "gid", node.gid);
  return json;
}

Json MountToJson(const Mount& mount) {
  Json json = Json::object();
  PutString(json, "hostPath", mount.host_path);
  PutString(json, "containerPath", mount.container_path);
  PutString(json, "type", mount.type);
  PutStrings(json, "options", mount.options);
  return json;
}

Json HookToJson(const Hook& hook) {
  Json json = Json::object();
  PutString(json, "hookName", hook.hook_name);
  PutString(json, "path", hook.path);
  PutStrings(json, "args", hook.args);
  PutStrings(json, "env", hook.env);
  PutOptional(json, "timeout", hook.timeout);
  return json;
}

}  // namespace

Json ToJson(const ContainerEdits& edits) {
  Json json = Json::object();
  PutStrings(json, "env", edits.env);
  if (!edits.device_nodes.empty()) {
    Json& nodes = json["deviceNodes"] = Json::array();
    for (const DeviceNode& node : edits.device_nodes) {
      nodes.push_back(NodeToJson(node));
    }
  }
  if (!edits.mounts.empty()) {
    Json& mounts = json["mounts"] = Json::array();
    for (const Mount& mount : edits.mounts)
      mounts.push_back(MountToJson(mount));
  }
  if (!edits.hooks.empty()) {
    Json& hooks = json["hooks"] = Json::array();
    for (const Hook& hook : edits.hooks) hooks.push_back(HookToJson(hook));
  }
  if (!edits.additional_gids.empty()) {
    json["additionalGids"] = edits.additional_gids;
  }
  return json;
}

Json ToJson(const Spec& spec) {
  Json json = Json::object();
  json["cdiVersion"] = spec.cdi_version;
  json["kind"] = spec.kind;
  PutAnnotations(json, spec.annotations);
  Json& devices = json["devices"] = Json::array();
  for (const Device& device : spec.devices) {
    Json entry = Json::object();
    entry["name"] = device.name;
    PutAnnotations(entry, device.annotations);
    entry["containerEdits"] = ToJson(device.container_edits);
    devices.push_back(std::move(entry));
  }
  if (!spec.container_edits.empty()) {
    json["containerEdits"] = ToJson(spec.container_edits);
  }
  return json;
}

}  // namespace gcushare::cdi
