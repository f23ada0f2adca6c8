#include "tests/peers/apiserver/resource_strategy.h"

#include <cctype>
#include <cstdint>
#include <utility>

#include "tests/peers/apiserver/object_meta.h"

namespace gcushare::apiserver {
namespace {

bool IsDnsLabelChar(char c) {
  return std::islower(static_cast<unsigned char>(c)) ||
         std::isdigit(static_cast<unsigned char>(c));
}

bool IsDnsSubdomain(const std::string& s) {
  if (s.empty() || s.size() > 253) return false;
  size_t start = 0;
  for (;;) {
    size_t dot = s.find('.', start);
    std::string label = s.substr(
        start, dot == std::string::npos ? std::string::npos : dot - start);
    if (label.empty() || !IsDnsLabelChar(label.front()) ||
        !IsDnsLabelChar(label.back())) {
      return false;
    }
    for (char c : label) {
      if (!IsDnsLabelChar(c) && c != '-') return false;
    }
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

void SetIfAbsent(Json& obj, const char* key, Json value) {
  if (!obj.contains(key) || obj[key].is_null()) obj[key] = std::move(value);
}

void DefaultContainer(Json& c) {
  if (!c.is_object()) return;
  auto resources = c.find("resources");
  if (resources != c.end() && resources->is_object()) {
    auto found = resources->find("limits");
    if (found != resources->end() && found->is_object() && !found->empty()) {
      const Json limits = *found;  // Inserting "requests" moves the map.
      Json& requests = (*resources)["requests"];
      if (!requests.is_object()) requests = Json::object();
      for (auto it = limits.begin(); it != limits.end(); ++it) {
        if (!requests.contains(it.key())) requests[it.key()] = it.value();
      }
    }
  }
  SetIfAbsent(c, "terminationMessagePath", "/dev/termination-log");
  SetIfAbsent(c, "terminationMessagePolicy", "File");
  if (!c.contains("imagePullPolicy")) {
    std::string image = c.value("image", "");
    size_t slash = image.rfind('/');
    std::string last =
        slash == std::string::npos ? image : image.substr(slash + 1);
    bool latest = last.find('@') == std::string::npos &&
                  (last.find(':') == std::string::npos ||
                   last.substr(last.find(':') + 1) == "latest");
    c["imagePullPolicy"] = latest ? "Always" : "IfNotPresent";
  }
}

bool HasToleration(const Json& tolerations, const std::string& key) {
  for (const Json& t : tolerations) {
    if (t.is_object() && t.value("key", "") == key) return true;
  }
  return false;
}

void DefaultPod(Json& pod) {
  Json& spec = pod["spec"];
  if (!spec.is_object()) spec = Json::object();
  for (const char* list : {"initContainers", "containers"}) {
    auto it = spec.find(list);
    if (it == spec.end() || !it->is_array()) continue;
    for (Json& c : *it) DefaultContainer(c);
  }
  SetIfAbsent(spec, "restartPolicy", "Always");
  SetIfAbsent(spec, "terminationGracePeriodSeconds", 30);
  SetIfAbsent(spec, "dnsPolicy", "ClusterFirst");
  SetIfAbsent(spec, "securityContext", Json::object());
  SetIfAbsent(spec, "schedulerName", "default-scheduler");
  // Admission: DefaultTolerationSeconds, Priority.
  Json& tolerations = spec["tolerations"];
  if (!tolerations.is_array()) tolerations = Json::array();
  for (const char* key :
       {"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"}) {
    if (HasToleration(tolerations, key)) continue;
    Json t = Json::object();
    t["key"] = key;
    t["operator"] = "Exists";
    t["effect"] = "NoExecute";
    t["tolerationSeconds"] = 300;
    tolerations.push_back(std::move(t));
  }
  SetIfAbsent(spec, "priority", 0);
  SetIfAbsent(spec, "enableServiceLinks", true);
  SetIfAbsent(spec, "preemptionPolicy", "PreemptLowerPriority");
  Json status = Json::object();
  status["phase"] = "Pending";
  status["qosClass"] = PodQosClass(pod);
  pod["status"] = std::move(status);
}

const Json* Find(const Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

// Copies old[key] into updated (or removes it when old has none).
void Keep(const Json& old, Json& updated, const char* key) {
  const Json* v = Find(old, key);
  if (v != nullptr) {
    updated[key] = *v;
  } else {
    updated.erase(key);
  }
}

}  // namespace

std::vector<FieldError> ValidateObjectName(const Json& object) {
  std::vector<FieldError> errors;
  std::string name = MetaString(object, "name");
  if (name.empty()) {
    FieldError e;
    e.type = FieldError::Type::kRequired;
    e.field = "metadata.name";
    e.detail = "name or generateName is required";
    errors.push_back(e);
  } else if (!IsDnsSubdomain(name)) {
    FieldError e;
    e.type = FieldError::Type::kInvalid;
    e.field = "metadata.name";
    e.value = GoQuote(name);
    e.detail =
        "a lowercase RFC 1123 subdomain must consist of lower case "
        "alphanumeric characters, '-' or '.', and must start and end with an "
        "alphanumeric character (e.g. 'example.com', regex used for "
        "validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    errors.push_back(e);
  }
  return errors;
}

std::vector<FieldError> ValidateForCreate(const ResourceKind& kind,
                                          const Json& object) {
  std::vector<FieldError> errors = ValidateObjectName(object);
  if (kind.validate_create) {
    for (FieldError& e : kind.validate_create(object)) {
      errors.push_back(std::move(e));
    }
  }
  return errors;
}

void PrepareForCreate(const ResourceKind& kind, IdGenerator& ids,
                      Json& object) {
  Json& meta = object["metadata"];
  if (!meta.is_object()) meta = Json::object();
  if (meta.value("name", "").empty()) {
    std::string prefix = meta.value("generateName", "");
    if (!prefix.empty()) meta["name"] = prefix + ids.NameSuffix();
  }
  meta["uid"] = ids.NewUid();
  meta["creationTimestamp"] = NowRfc3339();
  meta.erase("selfLink");
  meta.erase("deletionTimestamp");
  meta.erase("deletionGracePeriodSeconds");
  if (kind.has_generation) meta["generation"] = 1;
  if (kind.resource == "pods" && kind.group.empty()) DefaultPod(object);
  if (kind.prepare_create) kind.prepare_create(object);
  CanonicalizeObject(object);
}

std::vector<FieldError> PrepareForUpdate(const ResourceKind& kind,
                                         std::string_view subresource,
                                         const Json& old, Json& updated) {
  std::vector<FieldError> errors;
  Json& meta = updated["metadata"];
  if (!meta.is_object()) meta = Json::object();
  const std::string old_uid = MetaString(old, "uid");
  const std::string new_uid = meta.value("uid", "");
  if (new_uid.empty()) {
    meta["uid"] = old_uid;
  } else if (new_uid != old_uid) {
    FieldError e;
    e.type = FieldError::Type::kInvalid;
    e.field = "metadata.uid";
    e.value = GoQuote(new_uid);
    e.detail = "field is immutable";
    errors.push_back(e);
  }
  const Json* old_meta = Find(old, "metadata");
  if (old_meta != nullptr) {
    Keep(*old_meta, meta, "creationTimestamp");
    if (old_meta->contains("generation")) Keep(*old_meta, meta, "generation");
  }
  if (subresource.empty()) {
    if (kind.has_status) Keep(old, updated, "status");
  } else if (subresource == "status") {
    // Everything outside status and the metadata the status strategies leave
    // open (labels, annotations, ...) stays as it was.
    Json status = updated.contains("status") ? updated["status"] : Json();
    Json new_meta = meta;
    updated = old;
    if (status.is_null()) {
      updated.erase("status");
    } else {
      updated["status"] = std::move(status);
    }
    if (kind.resource == "pods" && old_meta != nullptr) {
      Keep(*old_meta, new_meta, "ownerReferences");
      Keep(*old_meta, new_meta, "deletionTimestamp");
      const Json* old_status = Find(old, "status");
      const Json* qos =
          old_status == nullptr ? nullptr : Find(*old_status, "qosClass");
      if (qos != nullptr && updated["status"].is_object() &&
          updated["status"].value("qosClass", "").empty()) {
        updated["status"]["qosClass"] = *qos;
      }
    }
    updated["metadata"] = std::move(new_meta);
  }
  if (kind.has_generation) {
    const Json* old_spec = Find(old, "spec");
    const Json* new_spec = Find(updated, "spec");
    const bool same =
        (old_spec == nullptr && new_spec == nullptr) ||
        (old_spec != nullptr && new_spec != nullptr && *old_spec == *new_spec);
    const Json* old_generation =
        old_meta == nullptr ? nullptr : Find(*old_meta, "generation");
    const int64_t generation =
        old_generation != nullptr && old_generation->is_number_integer()
            ? old_generation->get<int64_t>()
            : 0;
    updated["metadata"]["generation"] = same ? generation : generation + 1;
  }
  if (kind.prepare_update) kind.prepare_update(old, subresource, updated);
  CanonicalizeObject(updated);
  if (errors.empty() && kind.validate_update) {
    errors = kind.validate_update(old, subresource, updated);
  }
  return errors;
}

std::string PodQosClass(const Json& pod) {
  const Json* spec = Find(pod, "spec");
  bool any = false;
  bool guaranteed = true;
  for (const char* list : {"initContainers", "containers"}) {
    const Json* containers = spec == nullptr ? nullptr : Find(*spec, list);
    if (containers == nullptr || !containers->is_array()) continue;
    for (const Json& c : *containers) {
      const Json* resources = Find(c, "resources");
      const Json* requests =
          resources == nullptr ? nullptr : Find(*resources, "requests");
      const Json* limits =
          resources == nullptr ? nullptr : Find(*resources, "limits");
      for (const char* name : {"cpu", "memory"}) {
        const Json* req = requests == nullptr ? nullptr : Find(*requests, name);
        const Json* lim = limits == nullptr ? nullptr : Find(*limits, name);
        if (req != nullptr || lim != nullptr) any = true;
        if (lim == nullptr || (req != nullptr && *req != *lim)) {
          guaranteed = false;
        }
      }
    }
  }
  if (!any) return "BestEffort";
  return guaranteed ? "Guaranteed" : "Burstable";
}

}  // namespace gcushare::apiserver
