#include "kube/testing/fake_kube_client.h"

#include <chrono>
#include <utility>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "kube/api_status.h"
#include "kube/event.h"
#include "kube/json_fields.h"
#include "kube/selector.h"

namespace gcushare::kube {
namespace {

std::string ResourceKey(const Resource& resource) {
  return resource.group + "/" + resource.plural;
}

std::string Namespace(const Resource& resource, std::string_view ns) {
  return resource.namespaced ? std::string(ns) : "";
}

std::string ObjectKey(std::string_view ns, std::string_view name) {
  return std::string(ns) + "/" + std::string(name);
}

// An error shaped like the API server's, through the same mapping.
Status ApiError(int code, const std::string& reason,
                const std::string& message) {
  return StatusFromApiStatus({{"kind", "Status"},
                              {"reason", reason},
                              {"message", message},
                              {"code", code}},
                             code);
}

Status NotFound(const Resource& resource, std::string_view name) {
  return ApiError(404, "NotFound",
                  resource.plural + " \"" + std::string(name) + "\" not found");
}

Status StaleConflict(const Resource& resource, std::string_view name) {
  return ApiError(409, "Conflict",
                  "Operation cannot be fulfilled on " + resource.plural +
                      " \"" + std::string(name) +
                      "\": the object has been modified; please apply your "
                      "changes to the latest version and try again");
}

bool InNamespace(const nlohmann::json& object, const std::string& ns) {
  return ns.empty() || NamespaceOf(object) == ns;
}

}  // namespace

Status FakeKubeClient::TakeFailureLocked(const std::string& method,
                                         const std::string& what) {
  actions_.push_back(method + " " + what);
  auto it = failures_.find(method);
  if (it == failures_.end()) return OkStatus();
  Status status = it->second;
  failures_.erase(it);
  return status;
}

void FakeKubeClient::SetBindingHook(std::function<Status()> hook) {
  binding_hook_ = std::move(hook);
}

void FakeKubeClient::FailNext(const std::string& method, Status status) {
  base::MutexLock lock(mu_);
  failures_.emplace(method, std::move(status));
}

void FakeKubeClient::CloseWatches() {
  base::MutexLock lock(mu_);
  ++close_generation_;
  changed_.NotifyAll();
}

void FakeKubeClient::ExpireHistory() {
  base::MutexLock lock(mu_);
  expired_before_ = rv_;
  history_.clear();
  changed_.NotifyAll();
}

std::vector<std::string> FakeKubeClient::actions() const {
  base::MutexLock lock(mu_);
  return actions_;
}

std::string FakeKubeClient::resource_version() const {
  base::MutexLock lock(mu_);
  return std::to_string(rv_);
}

void FakeKubeClient::RecordLocked(const std::string& resource,
                                  WatchEventType type,
                                  const nlohmann::json& object) {
  history_.push_back({resource, type, object, rv_});
  changed_.NotifyAll();
}

StatusOr<nlohmann::json> FakeKubeClient::CreateLocked(const Resource& resource,
                                                      std::string_view ns,
                                                      nlohmann::json object) {
  if (!object.is_object()) {
    return ApiError(400, "BadRequest", "the object is not a JSON object");
  }
  nlohmann::json& metadata = object["metadata"];
  if (!metadata.is_object()) metadata = nlohmann::json::object();
  const std::string namespace_name = Namespace(resource, ns);
  if (resource.namespaced) {
    if (namespace_name.empty()) {
      return ApiError(400, "BadRequest", "a namespace is required");
    }
    metadata["namespace"] = namespace_name;
  }
  std::string name = StringAt(object, {"metadata", "name"});
  if (name.empty()) {
    const std::string prefix = StringAt(object, {"metadata", "generateName"});
    if (prefix.empty()) {
      return ApiError(422, "Invalid",
                      "metadata.name: Required value: name or generateName "
                      "is required");
    }
    name = prefix + "fake" + std::to_string(next_uid_);
    metadata["name"] = name;
  }
  Objects& objects = objects_[ResourceKey(resource)];
  const std::string key = ObjectKey(namespace_name, name);
  if (objects.count(key) != 0) {
    return ApiError(409, "AlreadyExists",
                    resource.plural + " \"" + name + "\" already exists");
  }
  ++rv_;
  metadata["resourceVersion"] = std::to_string(rv_);
  metadata["uid"] = "fake-uid-" + std::to_string(next_uid_++);
  if (!metadata.contains("creationTimestamp")) {
    metadata["creationTimestamp"] =
        FormatRfc3339(std::chrono::system_clock::now());
  }
  objects[key] = object;
  RecordLocked(ResourceKey(resource), WatchEventType::kAdded, object);
  return object;
}

StatusOr<nlohmann::json> FakeKubeClient::ReplaceLocked(const Resource& resource,
                                                       const std::string& key,
                                                       nlohmann::json object) {
  Objects& objects = objects_[ResourceKey(resource)];
  auto it = objects.find(key);
  if (it == objects.end()) return NotFound(resource, NameOf(object));
  const std::string given = ResourceVersionOf(object);
  if (!given.empty() && given != ResourceVersionOf(it->second)) {
    return StaleConflict(resource, NameOf(object));
  }
  // Identity fields stay the server's.
  for (const char* field : {"name", "namespace", "uid", "creationTimestamp"}) {
    const nlohmann::json* old = FindPath(it->second, {"metadata", field});
    if (old != nullptr) object["metadata"][field] = *old;
  }
  ++rv_;
  object["metadata"]["resourceVersion"] = std::to_string(rv_);
  it->second = object;
  RecordLocked(ResourceKey(resource), WatchEventType::kModified, object);
  return object;
}

StatusOr<nlohmann::json> FakeKubeClient::Seed(const Resource& resource,
                                              nlohmann::json object) {
  const std::string ns = NamespaceOf(object);
  base::MutexLock lock(mu_);
  return CreateLocked(resource, ns, std::move(object));
}

StatusOr<nlohmann::json> FakeKubeClient::Get(const Resource& resource,
                                             std::string_view ns,
                                             std::string_view name) {
  base::MutexLock lock(mu_);
  GCUSHARE_RETURN_IF_ERROR(TakeFailureLocked(
      "get", resource.plural + " " + ObjectKey(Namespace(resource, ns), name)));
  const Objects& objects = objects_[ResourceKey(resource)];
  auto it = objects.find(ObjectKey(Namespace(resource, ns), name));
  if (it == objects.end()) return NotFound(resource, name);
  return it->second;
}

StatusOr<ObjectList> FakeKubeClient::List(const Resource& resource,
                                          std::string_view ns,
                                          const ListOptions& options) {
  GCUSHARE_ASSIGN_OR_RETURN(Selector labels,
                            Selector::ParseLabels(options.label_selector));
  GCUSHARE_ASSIGN_OR_RETURN(Selector fields,
                            Selector::ParseFields(options.field_selector));
  base::MutexLock lock(mu_);
  GCUSHARE_RETURN_IF_ERROR(
      TakeFailureLocked("list", resource.plural + " " + std::string(ns)));
  ObjectList list;
  const std::string namespace_name = Namespace(resource, ns);
  for (const auto& [key, object] : objects_[ResourceKey(resource)]) {
    if (InNamespace(object, namespace_name) && labels.Matches(object) &&
        fields.Matches(object)) {
      list.items.push_back(object);
    }
  }
  list.resource_version = std::to_string(rv_);
  return list;
}

Status FakeKubeClient::Watch(const Resource& resource, std::string_view ns,
                             const WatchOptions& options,
                             const WatchCallback& callback) {
  GCUSHARE_ASSIGN_OR_RETURN(Selector labels,
                            Selector::ParseLabels(options.label_selector));
  GCUSHARE_ASSIGN_OR_RETURN(Selector fields,
                            Selector::ParseFields(options.field_selector));
  const std::string resource_key = ResourceKey(resource);
  const std::string namespace_name = Namespace(resource, ns);
  auto matches = [&](const nlohmann::json& object) {
    return InNamespace(object, namespace_name) && labels.Matches(object) &&
           fields.Matches(object);
  };
  Status expired = ApiError(410, "Expired", "too old resource version");

  std::vector<WatchEvent> pending;
  int64_t position = 0;
  uint64_t generation = 0;
  {
    base::MutexLock lock(mu_);
    GCUSHARE_RETURN_IF_ERROR(
        TakeFailureLocked("watch", resource.plural + " " + std::string(ns)));
    generation = close_generation_;
    const std::string& rv = options.resource_version;
    if (rv.empty() || rv == "0") {
      // The current state as synthetic ADDED events, then live changes.
      for (const auto& [key, object] : objects_[resource_key]) {
        if (matches(object)) {
          pending.push_back({WatchEventType::kAdded, object});
        }
      }
      position = rv_;
    } else {
      try {
        position = std::stoll(rv);
      } catch (...) {
        return ApiError(400, "BadRequest",
                        "invalid resourceVersion \"" + rv + "\"");
      }
      if (position < expired_before_) return expired;
    }
  }
  while (true) {
    for (WatchEvent& event : pending) callback(std::move(event));
    pending.clear();
    base::MutexLock lock(mu_);
    changed_.WaitFor(lock, std::chrono::milliseconds(20), [&]() REQUIRES(mu_) {
      return close_generation_ != generation ||
             (!history_.empty() && history_.back().rv > position) ||
             position < expired_before_ ||
             (options.cancel != nullptr && options.cancel->IsCancelled());
    });
    if (options.cancel != nullptr && options.cancel->IsCancelled()) {
      return Status(StatusCode::kCancelled, "watch cancelled");
    }
    if (position < expired_before_) return expired;
    for (const Change& change : history_) {
      if (change.rv <= position) continue;
      position = change.rv;
      if (change.resource == resource_key && matches(change.object)) {
        pending.push_back({change.type, change.object});
      }
    }
    if (pending.empty() && close_generation_ != generation) return OkStatus();
  }
}

StatusOr<nlohmann::json> FakeKubeClient::Create(const Resource& resource,
                                                std::string_view ns,
                                                const nlohmann::json& object) {
  base::MutexLock lock(mu_);
  GCUSHARE_RETURN_IF_ERROR(TakeFailureLocked(
      "create", resource.plural + " " +
                    ObjectKey(Namespace(resource, ns), NameOf(object))));
  return CreateLocked(resource, ns, object);
}

StatusOr<nlohmann::json> FakeKubeClient::Update(const Resource& resource,
                                                std::string_view ns,
                                                const nlohmann::json& object) {
  base::MutexLock lock(mu_);
  GCUSHARE_RETURN_IF_ERROR(TakeFailureLocked(
      "update", resource.plural + " " +
                    ObjectKey(Namespace(resource, ns), NameOf(object))));
  const std::string name = NameOf(object);
  if (name.empty()) {
    return InvalidArgumentError("update " + resource.DisplayName() +
                                ": the object has no metadata.name");
  }
  return ReplaceLocked(resource, ObjectKey(Namespace(resource, ns), name),
                       object);
}

StatusOr<nlohmann::json> FakeKubeClient::UpdateStatus(
    const Resource& resource, std::string_view ns,
    const nlohmann::json& object) {
  base::MutexLock lock(mu_);
  GCUSHARE_RETURN_IF_ERROR(TakeFailureLocked(
      "update", resource.plural + "/status " +
                    ObjectKey(Namespace(resource, ns), NameOf(object))));
  const std::string name = NameOf(object);
  if (name.empty()) {
    return InvalidArgumentError("update " + resource.DisplayName() +
                                "/status: the object has no metadata.name");
  }
  const std::string key = ObjectKey(Namespace(resource, ns), name);
  Objects& objects = objects_[ResourceKey(resource)];
  auto it = objects.find(key);
  if (it == objects.end()) return NotFound(resource, name);
  // Only the status changes; the resourceVersion is the precondition.
  nlohmann::json updated = it->second;
  updated["metadata"]["resourceVersion"] = ResourceVersionOf(object);
  if (object.contains("status")) {
    updated["status"] = object["status"];
  } else {
    updated.erase("status");
  }
  return ReplaceLocked(resource, key, std::move(updated));
}

Status FakeKubeClient::Delete(const Resource& resource, std::string_view ns,
                              std::string_view name,
                              const DeleteOptions& options) {
  base::MutexLock lock(mu_);
  GCUSHARE_RETURN_IF_ERROR(TakeFailureLocked(
      "delete",
      resource.plural + " " + ObjectKey(Namespace(resource, ns), name)));
  Objects& objects = objects_[ResourceKey(resource)];
  auto it = objects.find(ObjectKey(Namespace(resource, ns), name));
  if (it == objects.end()) return NotFound(resource, name);
  if (!options.uid_precondition.empty() &&
      StringAt(it->second, {"metadata", "uid"}) != options.uid_precondition) {
    return ApiError(409, "Conflict",
                    "Precondition failed: UID in precondition: " +
                        options.uid_precondition + ", UID in object meta: " +
                        StringAt(it->second, {"metadata", "uid"}));
  }
  nlohmann::json last = std::move(it->second);
  objects.erase(it);
  ++rv_;
  last["metadata"]["resourceVersion"] = std::to_string(rv_);
  RecordLocked(ResourceKey(resource), WatchEventType::kDeleted, last);
  return OkStatus();
}

StatusOr<nlohmann::json> FakeKubeClient::Patch(
    const Resource& resource, std::string_view ns, std::string_view name,
    PatchType type, const nlohmann::json& patch,
    std::string_view /*subresource*/) {
  base::MutexLock lock(mu_);
  GCUSHARE_RETURN_IF_ERROR(TakeFailureLocked(
      "patch",
      resource.plural + " " + ObjectKey(Namespace(resource, ns), name)));
  Objects& objects = objects_[ResourceKey(resource)];
  const std::string key = ObjectKey(Namespace(resource, ns), name);
  auto it = objects.find(key);
  if (it == objects.end()) return NotFound(resource, name);
  nlohmann::json patched = it->second;
  try {
    if (type == PatchType::kJsonPatch) {
      patched = patched.patch(patch);
    } else {
      patched.merge_patch(patch);
    }
  } catch (const nlohmann::json::exception& e) {
    return ApiError(422, "Invalid",
                    std::string("the patch failed: ") + e.what());
  }
  // A resourceVersion in the patch is a precondition.
  const std::string wanted = ResourceVersionOf(patch);
  patched["metadata"]["resourceVersion"] =
      wanted.empty() ? ResourceVersionOf(it->second) : wanted;
  return ReplaceLocked(resource, key, std::move(patched));
}

Status FakeKubeClient::CreateBinding(
    std::string_view ns, std::string_view pod, std::string_view uid,
    std::string_view node,
    const std::map<std::string, std::string>& annotations) {
  if (binding_hook_) GCUSHARE_RETURN_IF_ERROR(binding_hook_());
  base::MutexLock lock(mu_);
  GCUSHARE_RETURN_IF_ERROR(TakeFailureLocked(
      "binding", "pods " + ObjectKey(ns, pod) + " -> " + std::string(node)));
  const Resource pods = Resource::Pods();
  Objects& objects = objects_[ResourceKey(pods)];
  const std::string key = ObjectKey(ns, pod);
  auto it = objects.find(key);
  if (it == objects.end()) return NotFound(pods, pod);
  if (!uid.empty() && StringAt(it->second, {"metadata", "uid"}) != uid) {
    return ApiError(409, "Conflict",
                    "Operation cannot be fulfilled on pods/binding \"" +
                        std::string(pod) + "\": UID precondition failed");
  }
  const std::string bound = StringAt(it->second, {"spec", "nodeName"});
  if (!bound.empty()) {
    return ApiError(409, "Conflict",
                    "pod " + std::string(pod) +
                        " is already assigned to node \"" + bound + "\"");
  }
  nlohmann::json updated = it->second;
  updated["spec"]["nodeName"] = node;
  for (const auto& [name, value] : annotations) {
    updated["metadata"]["annotations"][name] = value;
  }
  nlohmann::json& conditions = updated["status"]["conditions"];
  if (!conditions.is_array()) conditions = nlohmann::json::array();
  conditions.push_back({{"type", "PodScheduled"}, {"status", "True"}});
  return ReplaceLocked(pods, key, std::move(updated)).status();
}

StatusOr<nlohmann::json> FakeKubeClient::CreateEvent(
    std::string_view ns, const ObjectReference& involved, std::string_view type,
    std::string_view reason, std::string_view message,
    std::string_view reporting_component) {
  base::MutexLock lock(mu_);
  GCUSHARE_RETURN_IF_ERROR(TakeFailureLocked(
      "event", involved.kind + " " +
                   ObjectKey(involved.namespace_name, involved.name) + " " +
                   std::string(reason)));
  EventFields fields;
  fields.type = std::string(type);
  fields.reason = std::string(reason);
  fields.message = std::string(message);
  fields.reporting_component = std::string(reporting_component);
  fields.reporting_instance = "fake";
  const std::string event_ns = EventNamespace(ns, involved);
  return CreateLocked(
      Resource::Events(), event_ns,
      BuildEvent(event_ns, involved, fields, std::chrono::system_clock::now(),
                 static_cast<uint64_t>(rv_)));
}

}  // namespace gcushare::kube
