#include "cdi/validator.h"

#include <cstdint>
#include <exception>
#include <initializer_list>
#include <limits>
#include <map>
#include <string>
#include <string_view>

#include "cdi/names.h"
#include "cdi/version.h"

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;

// A JSON-quoted string for messages; invalid UTF-8 is replaced, not thrown.
std::string Quoted(const std::string& text) {
  return Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string Field(const std::string& parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  return parent + "." + std::string(key);
}

std::string Item(const std::string& parent, size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

Status Violation(const std::string& path, const std::string& rule) {
  return InvalidArgumentError(path + ": " + rule);
}

std::string JoinNames(std::initializer_list<std::string_view> names) {
  std::string joined;
  for (std::string_view name : names) {
    if (!joined.empty()) joined += ", ";
    joined += name;
  }
  return joined;
}

// Rejects members of `object` not in `allowed`.
Status CheckKnownFields(const Json& object, const std::string& path,
                        std::initializer_list<std::string_view> allowed) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    bool known = false;
    for (std::string_view name : allowed) known = known || it.key() == name;
    if (!known) {
      return Violation(Field(path, it.key()), "unknown field (allowed here: " +
                                                  JoinNames(allowed) + ")");
    }
  }
  return OkStatus();
}

// Member `key`, or nullptr when absent or null.
const Json* Get(const Json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

Status WrongType(const std::string& path, std::string_view expected,
                 const Json& value) {
  return Violation(
      path, "must be " + std::string(expected) + ", got " + value.type_name());
}

Status CheckObject(const Json& value, const std::string& path) {
  if (!value.is_object()) return WrongType(path, "a map", value);
  return OkStatus();
}

Status CheckArray(const Json& value, const std::string& path) {
  if (!value.is_array()) return WrongType(path, "a list", value);
  return OkStatus();
}

Status CheckString(const Json& value, const std::string& path) {
  if (!value.is_string()) return WrongType(path, "a string", value);
  return OkStatus();
}

Status CheckBool(const Json& value, const std::string& path) {
  if (!value.is_boolean()) return WrongType(path, "true or false", value);
  return OkStatus();
}

// Integer within [min, max]; floats are refused like Go's decoder does.
Status CheckInteger(const Json& value, const std::string& path, int64_t min,
                    uint64_t max, std::string_view what) {
  const std::string expected = std::string(what) + " (" + std::to_string(min) +
                               ".." + std::to_string(max) + ")";
  if (!value.is_number_integer()) return WrongType(path, expected, value);
  bool in_range;
  if (value.is_number_unsigned()) {
    in_range = value.get<uint64_t>() <= max;
  } else {
    int64_t v = value.get<int64_t>();
    in_range = v >= min && (v < 0 || static_cast<uint64_t>(v) <= max);
  }
  if (!in_range) {
    return Violation(path, value.dump() + " is out of range for " + expected);
  }
  return OkStatus();
}

Status CheckUint32(const Json& value, const std::string& path) {
  return CheckInteger(value, path, 0, std::numeric_limits<uint32_t>::max(),
                      "an unsigned 32-bit integer");
}

// A required member: present, not null.
StatusOr<const Json*> Require(const Json& object, const std::string& path,
                              const char* key) {
  const Json* value = Get(object, key);
  if (value == nullptr) return Violation(Field(path, key), "is required");
  return value;
}

Status CheckStringList(const Json& value, const std::string& path) {
  GCUSHARE_RETURN_IF_ERROR(CheckArray(value, path));
  for (size_t i = 0; i < value.size(); ++i) {
    GCUSHARE_RETURN_IF_ERROR(CheckString(value[i], Item(path, i)));
  }
  return OkStatus();
}

Status CheckAnnotations(const Json& value, const std::string& path) {
  GCUSHARE_RETURN_IF_ERROR(CheckObject(value, path));
  for (auto it = value.begin(); it != value.end(); ++it) {
    GCUSHARE_RETURN_IF_ERROR(CheckString(it.value(), Field(path, it.key())));
  }
  return OkStatus();
}

Status CheckAbsolutePath(const Json& value, const std::string& path) {
  GCUSHARE_RETURN_IF_ERROR(CheckString(value, path));
  const std::string& text = value.get_ref<const std::string&>();
  if (text.empty() || text.front() != '/') {
    return Violation(path, Quoted(text) + " is not an absolute path");
  }
  return OkStatus();
}

Status CheckNonEmptyString(const Json& value, const std::string& path) {
  GCUSHARE_RETURN_IF_ERROR(CheckString(value, path));
  if (value.get_ref<const std::string&>().empty()) {
    return Violation(path, "must not be empty");
  }
  return OkStatus();
}

Status CheckEnv(const Json& value, const std::string& path) {
  GCUSHARE_RETURN_IF_ERROR(CheckStringList(value, path));
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string& entry = value[i].get_ref<const std::string&>();
    size_t equals = entry.find('=');
    if (equals == std::string::npos || equals == 0) {
      return Violation(
          Item(path, i),
          Quoted(entry) + " must be NAME=VALUE with a non-empty NAME");
    }
  }
  return OkStatus();
}

Status CheckDeviceNode(const Json& node, const std::string& path) {
  GCUSHARE_RETURN_IF_ERROR(CheckObject(node, path));
  GCUSHARE_RETURN_IF_ERROR(
      CheckKnownFields(node, path,
                       {"path", "hostPath", "type", "major", "minor",
                        "fileMode", "permissions", "uid", "gid"}));
  GCUSHARE_ASSIGN_OR_RETURN(const Json* container_path,
                            Require(node, path, "path"));
  GCUSHARE_RETURN_IF_ERROR(
      CheckAbsolutePath(*container_path, Field(path, "path")));
  if (const Json* host_path = Get(node, "hostPath")) {
    GCUSHARE_RETURN_IF_ERROR(CheckString(*host_path, Field(path, "hostPath")));
    if (!host_path->get_ref<const std::string&>().empty()) {
      GCUSHARE_RETURN_IF_ERROR(
          CheckAbsolutePath(*host_path, Field(path, "hostPath")));
    }
  }
  if (const Json* type = Get(node, "type")) {
    GCUSHARE_RETURN_IF_ERROR(CheckString(*type, Field(path, "type")));
    const std::string& text = type->get_ref<const std::string&>();
    if (text != "" && text != "b" && text != "c" && text != "u" &&
        text != "p") {
      return Violation(Field(path, "type"),
                       Quoted(text) +
                           " is not a device type (one of \"\", \"b\", "
                           "\"c\", \"u\", \"p\")");
    }
  }
  for (const char* key : {"major", "minor"}) {
    if (const Json* number = Get(node, key)) {
      GCUSHARE_RETURN_IF_ERROR(CheckInteger(
          *number, Field(path, key), 0, std::numeric_limits<int64_t>::max(),
          "a non-negative 64-bit device number"));
    }
  }
  for (const char* key : {"fileMode", "uid", "gid"}) {
    if (const Json* number = Get(node, key)) {
      GCUSHARE_RETURN_IF_ERROR(CheckUint32(*number, Field(path, key)));
    }
  }
  if (const Json* permissions = Get(node, "permissions")) {
    const std::string where = Field(path, "permissions");
    GCUSHARE_RETURN_IF_ERROR(CheckString(*permissions, where));
    const std::string& text = permissions->get_ref<const std::string&>();
    for (char c : text) {
      if (c != 'r' && c != 'w' && c != 'm') {
        return Violation(where, Quoted(text) + ": " +
                                    Quoted(std::string(1, c)) +
                                    " is not a permission (only r, w and m)");
      }
    }
  }
  return OkStatus();
}

Status CheckMount(const Json& mount, const std::string& path) {
  GCUSHARE_RETURN_IF_ERROR(CheckObject(mount, path));
  GCUSHARE_RETURN_IF_ERROR(CheckKnownFields(
      mount, path, {"hostPath", "containerPath", "type", "options"}));
  for (const char* key : {"hostPath", "containerPath"}) {
    GCUSHARE_ASSIGN_OR_RETURN(const Json* value, Require(mount, path, key));
    GCUSHARE_RETURN_IF_ERROR(CheckNonEmptyString(*value, Field(path, key)));
  }
  if (const Json* type = Get(mount, "type")) {
    GCUSHARE_RETURN_IF_ERROR(CheckString(*type, Field(path, "type")));
  }
  if (const Json* options = Get(mount, "options")) {
    GCUSHARE_RETURN_IF_ERROR(CheckStringList(*options, Field(path, "options")));
  }
  return OkStatus();
}

Status CheckHook(const Json& hook, const std::string& path) {
  GCUSHARE_RETURN_IF_ERROR(CheckObject(hook, path));
  GCUSHARE_RETURN_IF_ERROR(CheckKnownFields(
      hook, path, {"hookName", "path", "args", "env", "timeout"}));
  GCUSHARE_ASSIGN_OR_RETURN(const Json* name, Require(hook, path, "hookName"));
  GCUSHARE_RETURN_IF_ERROR(CheckString(*name, Field(path, "hookName")));
  const std::string& text = name->get_ref<const std::string&>();
  bool valid_name = false;
  for (std::string_view known : {"prestart", "createRuntime", "createContainer",
                                 "startContainer", "poststart", "poststop"}) {
    valid_name = valid_name || text == known;
  }
  if (!valid_name) {
    return Violation(Field(path, "hookName"),
                     Quoted(text) +
                         " is not a hook name (one of prestart, "
                         "createRuntime, createContainer, startContainer, "
                         "poststart, poststop)");
  }
  GCUSHARE_ASSIGN_OR_RETURN(const Json* hook_path, Require(hook, path, "path"));
  GCUSHARE_RETURN_IF_ERROR(CheckAbsolutePath(*hook_path, Field(path, "path")));
  if (const Json* args = Get(hook, "args")) {
    GCUSHARE_RETURN_IF_ERROR(CheckStringList(*args, Field(path, "args")));
  }
  if (const Json* env = Get(hook, "env")) {
    GCUSHARE_RETURN_IF_ERROR(CheckEnv(*env, Field(path, "env")));
  }
  if (const Json* timeout = Get(hook, "timeout")) {
    GCUSHARE_RETURN_IF_ERROR(CheckInteger(
        *timeout, Field(path, "timeout"), std::numeric_limits<int64_t>::min(),
        std::numeric_limits<int64_t>::max(), "an integer"));
  }
  return OkStatus();
}

Status CheckIntelRdt(const Json& rdt, const std::string& path) {
  GCUSHARE_RETURN_IF_ERROR(CheckObject(rdt, path));
  GCUSHARE_RETURN_IF_ERROR(
      CheckKnownFields(rdt, path,
                       {"closID", "l3CacheSchema", "memBwSchema", "schemata",
                        "enableMonitoring"}));
  for (const char* key : {"closID", "l3CacheSchema", "memBwSchema"}) {
    if (const Json* value = Get(rdt, key)) {
      GCUSHARE_RETURN_IF_ERROR(CheckString(*value, Field(path, key)));
    }
  }
  if (const Json* schemata = Get(rdt, "schemata")) {
    GCUSHARE_RETURN_IF_ERROR(
        CheckStringList(*schemata, Field(path, "schemata")));
  }
  if (const Json* monitoring = Get(rdt, "enableMonitoring")) {
    GCUSHARE_RETURN_IF_ERROR(
        CheckBool(*monitoring, Field(path, "enableMonitoring")));
  }
  return OkStatus();
}

Status CheckNetDevices(const Json& devices, const std::string& path) {
  GCUSHARE_RETURN_IF_ERROR(CheckArray(devices, path));
  std::map<std::string, size_t> host_seen;
  std::map<std::string, size_t> name_seen;
  for (size_t i = 0; i < devices.size(); ++i) {
    const std::string where = Item(path, i);
    const Json& device = devices[i];
    GCUSHARE_RETURN_IF_ERROR(CheckObject(device, where));
    GCUSHARE_RETURN_IF_ERROR(
        CheckKnownFields(device, where, {"hostInterfaceName", "name"}));
    for (const char* key : {"hostInterfaceName", "name"}) {
      GCUSHARE_ASSIGN_OR_RETURN(const Json* value, Require(device, where, key));
      GCUSHARE_RETURN_IF_ERROR(CheckNonEmptyString(*value, Field(where, key)));
      auto& seen = std::string_view(key) == "name" ? name_seen : host_seen;
      const std::string& text = value->get_ref<const std::string&>();
      auto [it, inserted] = seen.emplace(text, i);
      if (!inserted) {
        return Violation(Field(where, key), Quoted(text) + " is also used by " +
                                                Item(path, it->second) +
                                                " (must be unique)");
      }
    }
  }
  return OkStatus();
}

// `must_not_be_empty`: a device's edits must do something; the spec-level
// edits may be empty.
Status CheckContainerEdits(const Json& edits, const std::string& path,
                           bool must_not_be_empty) {
  GCUSHARE_RETURN_IF_ERROR(CheckObject(edits, path));
  GCUSHARE_RETURN_IF_ERROR(
      CheckKnownFields(edits, path,
                       {"env", "deviceNodes", "mounts", "hooks",
                        "additionalGids", "intelRdt", "netDevices"}));
  bool empty = true;
  if (const Json* env = Get(edits, "env")) {
    GCUSHARE_RETURN_IF_ERROR(CheckEnv(*env, Field(path, "env")));
    empty = empty && env->empty();
  }
  using ItemCheck = Status (*)(const Json&, const std::string&);
  const std::pair<const char*, ItemCheck> lists[] = {
      {"deviceNodes", CheckDeviceNode},
      {"mounts", CheckMount},
      {"hooks", CheckHook},
      {"additionalGids", CheckUint32},
  };
  for (const auto& [key, check] : lists) {
    const Json* list = Get(edits, key);
    if (list == nullptr) continue;
    const std::string where = Field(path, key);
    GCUSHARE_RETURN_IF_ERROR(CheckArray(*list, where));
    for (size_t i = 0; i < list->size(); ++i) {
      GCUSHARE_RETURN_IF_ERROR(check((*list)[i], Item(where, i)));
    }
    empty = empty && list->empty();
  }
  if (const Json* rdt = Get(edits, "intelRdt")) {
    GCUSHARE_RETURN_IF_ERROR(CheckIntelRdt(*rdt, Field(path, "intelRdt")));
    empty = false;
  }
  if (const Json* net = Get(edits, "netDevices")) {
    GCUSHARE_RETURN_IF_ERROR(CheckNetDevices(*net, Field(path, "netDevices")));
    empty = empty && net->empty();
  }
  if (must_not_be_empty && empty) {
    return Violation(path,
                     "must not be empty (a device needs at least one edit)");
  }
  return OkStatus();
}

Status CheckDevices(const Json& devices) {
  const std::string path = "devices";
  GCUSHARE_RETURN_IF_ERROR(CheckArray(devices, path));
  if (devices.empty()) {
    return Violation(path, "must have at least one device");
  }
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < devices.size(); ++i) {
    const std::string where = Item(path, i);
    const Json& device = devices[i];
    GCUSHARE_RETURN_IF_ERROR(CheckObject(device, where));
    GCUSHARE_RETURN_IF_ERROR(CheckKnownFields(
        device, where, {"name", "annotations", "containerEdits"}));
    GCUSHARE_ASSIGN_OR_RETURN(const Json* name, Require(device, where, "name"));
    const std::string name_path = Field(where, "name");
    GCUSHARE_RETURN_IF_ERROR(CheckString(*name, name_path));
    const std::string& text = name->get_ref<const std::string&>();
    if (Status s = ValidateDeviceName(text); !s.ok()) {
      return Violation(
          name_path,
          Quoted(text) + " is not a valid device name: " + s.message());
    }
    auto [it, inserted] = seen.emplace(text, i);
    if (!inserted) {
      return Violation(name_path, Quoted(text) + " is also the name of " +
                                      Item(path, it->second) +
                                      " (device names must be unique)");
    }
    if (const Json* annotations = Get(device, "annotations")) {
      GCUSHARE_RETURN_IF_ERROR(
          CheckAnnotations(*annotations, Field(where, "annotations")));
    }
    GCUSHARE_ASSIGN_OR_RETURN(const Json* edits,
                              Require(device, where, "containerEdits"));
    GCUSHARE_RETURN_IF_ERROR(CheckContainerEdits(
        *edits, Field(where, "containerEdits"), /*must_not_be_empty=*/true));
  }
  return OkStatus();
}

Status Validate(const Json& spec) {
  if (!spec.is_object()) return WrongType("spec", "a map", spec);
  GCUSHARE_RETURN_IF_ERROR(CheckKnownFields(
      spec, "",
      {"cdiVersion", "kind", "annotations", "devices", "containerEdits"}));

  GCUSHARE_ASSIGN_OR_RETURN(const Json* version,
                            Require(spec, "", "cdiVersion"));
  GCUSHARE_RETURN_IF_ERROR(CheckString(*version, "cdiVersion"));
  const std::string& declared = version->get_ref<const std::string&>();
  const std::string canonical = CanonicalVersion(declared);
  if (canonical.empty()) {
    std::string known;
    for (std::string_view v : kKnownVersions) {
      known += known.empty() ? "" : ", ";
      known += v;
    }
    return Violation("cdiVersion",
                     Quoted(declared) +
                         " is not a known CDI version (known: " + known + ")");
  }

  GCUSHARE_ASSIGN_OR_RETURN(const Json* kind, Require(spec, "", "kind"));
  GCUSHARE_RETURN_IF_ERROR(CheckString(*kind, "kind"));
  const std::string& kind_text = kind->get_ref<const std::string&>();
  if (Status s = ValidateKind(kind_text); !s.ok()) {
    return Violation(
        "kind", Quoted(kind_text) + " is not a valid kind: " + s.message());
  }

  if (const Json* annotations = Get(spec, "annotations")) {
    GCUSHARE_RETURN_IF_ERROR(CheckAnnotations(*annotations, "annotations"));
  }
  GCUSHARE_ASSIGN_OR_RETURN(const Json* devices, Require(spec, "", "devices"));
  GCUSHARE_RETURN_IF_ERROR(CheckDevices(*devices));
  if (const Json* edits = Get(spec, "containerEdits")) {
    GCUSHARE_RETURN_IF_ERROR(CheckContainerEdits(*edits, "containerEdits",
                                                 /*must_not_be_empty=*/false));
  }

  RequiredVersion required = RequiredVersionFor(spec);
  if (CompareVersions(canonical, required.version) < 0) {
    std::string why =
        required.reason.empty()
            ? "the earliest supported version is " + required.version
            : required.version + " is needed because " + required.reason;
    return Violation("cdiVersion", Quoted(declared) + " is too low: " + why);
  }
  return OkStatus();
}

}  // namespace

Status ValidateSpec(const nlohmann::json& spec) {
  try {
    return Validate(spec);
  } catch (const std::exception& e) {
    return InternalError(std::string("validating CDI spec: ") + e.what());
  }
}

}  // namespace gcushare::cdi
