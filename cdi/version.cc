#include "cdi/version.h"

#include <string>
#include <utility>

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;

// Go's zero-value rule: "" / [] / {} / false / null mean "not set".
bool IsSet(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return false;
    case Json::value_t::string:
      return !value.get_ref<const std::string&>().empty();
    case Json::value_t::array:
    case Json::value_t::object:
      return !value.empty();
    case Json::value_t::boolean:
      return value.get<bool>();
    default:
      return true;
  }
}

// Member `key` of an object, or nullptr.
const Json* Member(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

bool IsAsciiLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Keeps the highest version seen and the first reason that asked for it.
class Requirement {
 public:
  void Need(std::string_view version, std::string reason) {
    if (CompareVersions(version, result_.version) > 0) {
      result_.version = std::string(version);
      result_.reason = std::move(reason);
    }
  }
  RequiredVersion Result() const { return result_; }

 private:
  RequiredVersion result_{std::string(kEarliestVersion), ""};
};

void CheckEdits(const Json& edits, const std::string& where,
                Requirement& need) {
  if (!edits.is_object()) return;
  if (const Json* mounts = Member(edits, "mounts");
      mounts && mounts->is_array()) {
    for (size_t i = 0; i < mounts->size(); ++i) {
      const Json* type = Member((*mounts)[i], "type");
      if (type && IsSet(*type)) {
        need.Need("0.4.0",
                  where + ".mounts[" + std::to_string(i) + "].type is set");
      }
    }
  }
  if (const Json* nodes = Member(edits, "deviceNodes");
      nodes && nodes->is_array()) {
    for (size_t i = 0; i < nodes->size(); ++i) {
      const Json* host_path = Member((*nodes)[i], "hostPath");
      if (host_path && IsSet(*host_path)) {
        need.Need("0.5.0", where + ".deviceNodes[" + std::to_string(i) +
                               "].hostPath is set");
      }
    }
  }
  if (const Json* rdt = Member(edits, "intelRdt"); rdt && !rdt->is_null()) {
    need.Need("0.7.0", where + ".intelRdt is set");
    if (const Json* schemata = Member(*rdt, "schemata");
        schemata && IsSet(*schemata)) {
      need.Need("1.1.0", where + ".intelRdt.schemata is set");
    }
    if (const Json* monitoring = Member(*rdt, "enableMonitoring");
        monitoring && IsSet(*monitoring)) {
      need.Need("1.1.0", where + ".intelRdt.enableMonitoring is set");
    }
  }
  if (const Json* gids = Member(edits, "additionalGids");
      gids && IsSet(*gids)) {
    need.Need("0.7.0", where + ".additionalGids is set");
  }
  if (const Json* net = Member(edits, "netDevices"); net && IsSet(*net)) {
    need.Need("1.1.0", where + ".netDevices is set");
  }
}

}  // namespace

std::string CanonicalVersion(std::string_view declared) {
  if (!declared.empty() && declared.front() == 'v') declared.remove_prefix(1);
  for (std::string_view known : kKnownVersions) {
    if (declared == known) return std::string(known);
  }
  return "";
}

int CompareVersions(std::string_view a, std::string_view b) {
  auto rank = [](std::string_view v) {
    for (size_t i = 0; i < kKnownVersions.size(); ++i) {
      if (kKnownVersions[i] == v) return static_cast<int>(i);
    }
    return -1;
  };
  return rank(a) - rank(b);
}

RequiredVersion RequiredVersionFor(const Json& spec) {
  Requirement need;
  if (const Json* kind = Member(spec, "kind"); kind && kind->is_string()) {
    const std::string& text = kind->get_ref<const std::string&>();
    size_t slash = text.find('/');
    if (slash != std::string::npos &&
        text.find('.', slash + 1) != std::string::npos) {
      need.Need("0.6.0", "kind \"" + text + "\" has a '.' in its class");
    }
  }
  if (const Json* annotations = Member(spec, "annotations");
      annotations && IsSet(*annotations)) {
    need.Need("0.6.0", "annotations are set");
  }
  if (const Json* devices = Member(spec, "devices");
      devices && devices->is_array()) {
    for (size_t i = 0; i < devices->size(); ++i) {
      const Json& device = (*devices)[i];
      const std::string where = "devices[" + std::to_string(i) + "]";
      if (const Json* name = Member(device, "name");
          name && name->is_string()) {
        const std::string& text = name->get_ref<const std::string&>();
        if (!text.empty() && !IsAsciiLetter(text.front())) {
          std::string reason = where;
          reason.append(".name \"")
              .append(text)
              .append("\" does not start with a letter");
          need.Need("0.5.0", std::move(reason));
        }
      }
      if (const Json* annotations = Member(device, "annotations");
          annotations && IsSet(*annotations)) {
        need.Need("0.6.0", where + ".annotations are set");
      }
      if (const Json* edits = Member(device, "containerEdits")) {
        CheckEdits(*edits, where + ".containerEdits", need);
      }
    }
  }
  if (const Json* edits = Member(spec, "containerEdits")) {
    CheckEdits(*edits, "containerEdits", need);
  }
  return need.Result();
}

std::string MinimumVersion(const Json& spec) {
  return RequiredVersionFor(spec).version;
}

}  // namespace gcushare::cdi
