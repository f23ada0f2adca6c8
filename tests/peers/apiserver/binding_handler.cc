#include "tests/peers/apiserver/binding_handler.h"

#include <string>
#include <utility>
#include <vector>

#include "tests/peers/apiserver/body_decoder.h"
#include "tests/peers/apiserver/guaranteed_update.h"
#include "tests/peers/apiserver/id_generator.h"
#include "tests/peers/apiserver/object_meta.h"
#include "tests/peers/apiserver/request_checks.h"
#include "tests/peers/apiserver/response_writer.h"

namespace gcushare::apiserver {
namespace {

// The message of a failed storage precondition, as the etcd3 store words it.
std::string PreconditionFailed(const std::string& ns, const std::string& name,
                               const std::string& what,
                               const std::string& wanted,
                               const std::string& actual) {
  return "StorageError: invalid object, Code: 4, Key: /registry/pods/" + ns +
         "/" + name +
         ", ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: " +
         what + " in precondition: " + wanted + ", " + what +
         " in object meta: " + actual;
}

// Sets condition PodScheduled=True the way podutil.UpdatePodCondition does:
// the transition time changes only when the status does.
void SetPodScheduled(Json& pod) {
  Json& status = pod["status"];
  if (!status.is_object()) status = Json::object();
  Json& conditions = status["conditions"];
  if (!conditions.is_array()) conditions = Json::array();
  Json condition = Json::object();
  condition["type"] = "PodScheduled";
  condition["status"] = "True";
  condition["lastProbeTime"] = nullptr;
  condition["lastTransitionTime"] = NowRfc3339();
  for (Json& c : conditions) {
    if (!c.is_object() || c.value("type", "") != "PodScheduled") continue;
    if (c.value("status", "") == "True" && c.contains("lastTransitionTime")) {
      condition["lastTransitionTime"] = c["lastTransitionTime"];
    }
    c = std::move(condition);
    return;
  }
  conditions.push_back(std::move(condition));
}

}  // namespace

void BindingHandler::Bind(const ApiPath& path, const httplib::Request& req,
                          httplib::Response& res) {
  ApiResult<Json> decoded = DecodeObjectBody(
      req.body, req.get_header_value("Content-Type"), "Binding");
  if (!decoded.ok()) {
    WriteStatus(res, decoded.error());
    return;
  }
  Json binding = std::move(decoded).value();
  if (auto err = EnsureNamespace(binding, path.ns)) {
    WriteStatus(res, *err);
    return;
  }
  const std::string name =
      path.bindings_collection ? MetaString(binding, "name") : path.name;
  if (MetaString(binding, "name") != name) {
    WriteStatus(res, BadRequestStatus(
                         "name in URL does not match name in Binding object"));
    return;
  }
  const Json target = binding.value("target", Json::object());
  const std::string target_kind =
      target.is_object() ? target.value("kind", "") : "";
  const std::string node = target.is_object() ? target.value("name", "") : "";
  std::vector<std::string> errors;
  if (!target_kind.empty() && target_kind != "Node") {
    errors.push_back("target.kind: Unsupported value: " + GoQuote(target_kind) +
                     ": supported values: \"Node\", \"<empty>\"");
  }
  if (node.empty()) errors.emplace_back("target.name: Required value");
  if (!errors.empty()) {
    std::string message = errors.size() == 1
                              ? errors[0]
                              : "[" + errors[0] + ", " + errors[1] + "]";
    WriteStatus(res, UnknownErrorStatus(message));
    return;
  }
  const std::string uid = MetaString(binding, "uid");
  const std::string rv = MetaString(binding, "resourceVersion");
  const Json annotations =
      binding["metadata"].value("annotations", Json::object());
  const ResourceKind& pods = *path.kind;
  auto written = GuaranteedUpdate(
      *ctx_.store, pods, StoreKey(path.ns, name), name,
      [&](const StoredObject& current) -> ApiResult<Json> {
        const Json& pod = current.object;
        if (!uid.empty() && uid != MetaString(pod, "uid")) {
          return ConflictStatus("pods", name,
                                PreconditionFailed(path.ns, name, "UID", uid,
                                                   MetaString(pod, "uid")));
        }
        if (!rv.empty() && rv != MetaString(pod, "resourceVersion")) {
          return ConflictStatus(
              "pods", name,
              PreconditionFailed(path.ns, name, "ResourceVersion", rv,
                                 MetaString(pod, "resourceVersion")));
        }
        std::string bound;
        if (pod.contains("spec") && pod["spec"].is_object()) {
          bound = pod["spec"].value("nodeName", "");
        }
        if (!bound.empty()) {
          return ConflictStatus(
              "pods/binding", name,
              "pod " + name + " is already assigned to node " + GoQuote(bound));
        }
        Json updated = pod;
        if (!updated["spec"].is_object()) updated["spec"] = Json::object();
        updated["spec"]["nodeName"] = node;
        if (annotations.is_object() && !annotations.empty()) {
          Json& mine = updated["metadata"]["annotations"];
          if (!mine.is_object()) mine = Json::object();
          for (auto it = annotations.begin(); it != annotations.end(); ++it) {
            mine[it.key()] = it.value();
          }
        }
        SetPodScheduled(updated);
        CanonicalizeObject(updated);
        return updated;
      });
  if (!written.ok()) {
    WriteStatus(res, written.error());
    return;
  }
  WriteStatus(res, ApiStatus::Success(201));
}

}  // namespace gcushare::apiserver
