#include "tests/peers/apiserver/resource_kind.h"

#include <utility>

namespace gcushare::apiserver {
namespace {

// The string at a path of nested objects, or "".
std::string StringAt(const Json& obj, std::initializer_list<const char*> path) {
  const Json* cur = &obj;
  for (const char* key : path) {
    if (!cur->is_object()) return "";
    auto it = cur->find(key);
    if (it == cur->end()) return "";
    cur = &*it;
  }
  return cur->is_string() ? cur->get<std::string>() : "";
}

// Go's strconv.FormatBool of a bool field (absent is false).
std::string BoolAt(const Json& obj, std::initializer_list<const char*> path) {
  const Json* cur = &obj;
  for (const char* key : path) {
    if (!cur->is_object()) return "false";
    auto it = cur->find(key);
    if (it == cur->end()) return "false";
    cur = &*it;
  }
  return cur->is_boolean() && cur->get<bool>() ? "true" : "false";
}

void AddObjectMetaFields(const Json& obj, bool namespaced, FieldSet* fields) {
  (*fields)["metadata.name"] = StringAt(obj, {"metadata", "name"});
  if (namespaced) {
    (*fields)["metadata.namespace"] = StringAt(obj, {"metadata", "namespace"});
  }
}

FieldSet PodFields(const Json& pod) {
  FieldSet f;
  AddObjectMetaFields(pod, true, &f);
  f["spec.nodeName"] = StringAt(pod, {"spec", "nodeName"});
  f["spec.restartPolicy"] = StringAt(pod, {"spec", "restartPolicy"});
  f["spec.schedulerName"] = StringAt(pod, {"spec", "schedulerName"});
  f["spec.serviceAccountName"] = StringAt(pod, {"spec", "serviceAccountName"});
  f["spec.hostNetwork"] = BoolAt(pod, {"spec", "hostNetwork"});
  f["status.phase"] = StringAt(pod, {"status", "phase"});
  // The real server takes the first of status.podIPs (which the v1 API keeps
  // in step with status.podIP).
  std::string ip = StringAt(pod, {"status", "podIP"});
  auto status = pod.find("status");
  if (status != pod.end() && status->is_object()) {
    auto ips = status->find("podIPs");
    if (ips != status->end() && ips->is_array() && !ips->empty()) {
      ip = StringAt((*ips)[0], {"ip"});
    }
  }
  f["status.podIP"] = ip;
  f["status.nominatedNodeName"] =
      StringAt(pod, {"status", "nominatedNodeName"});
  return f;
}

FieldSet NodeFields(const Json& node) {
  FieldSet f;
  AddObjectMetaFields(node, false, &f);
  f["spec.unschedulable"] = BoolAt(node, {"spec", "unschedulable"});
  return f;
}

FieldSet EventFields(const Json& event) {
  FieldSet f;
  AddObjectMetaFields(event, true, &f);
  for (const char* field : {"kind", "namespace", "name", "uid", "apiVersion",
                            "resourceVersion", "fieldPath"}) {
    f[std::string("involvedObject.") + field] =
        StringAt(event, {"involvedObject", field});
  }
  f["reason"] = StringAt(event, {"reason"});
  f["reportingComponent"] = StringAt(event, {"reportingComponent"});
  std::string source = StringAt(event, {"source", "component"});
  if (source.empty()) source = StringAt(event, {"reportingComponent"});
  f["source"] = source;
  f["type"] = StringAt(event, {"type"});
  return f;
}

void AddMetadataSchema(MergeSchema* schema) {
  (*schema)["metadata/finalizers"] = ListStrategy{};
  (*schema)["metadata/ownerReferences"] = ListStrategy{"uid"};
}

MergeSchema PodSchema() {
  MergeSchema s;
  AddMetadataSchema(&s);
  for (const char* list :
       {"spec/containers", "spec/initContainers", "spec/ephemeralContainers"}) {
    std::string base = list;
    s[base] = {"name"};
    s[base + "/*/ports"] = {"containerPort"};
    s[base + "/*/env"] = {"name"};
    s[base + "/*/volumeMounts"] = {"mountPath"};
    s[base + "/*/volumeDevices"] = {"devicePath"};
  }
  s["spec/volumes"] = {"name"};
  s["spec/imagePullSecrets"] = {"name"};
  s["spec/hostAliases"] = {"ip"};
  s["spec/topologySpreadConstraints"] = {"topologyKey"};
  s["spec/schedulingGates"] = {"name"};
  s["spec/resourceClaims"] = {"name"};
  s["status/conditions"] = {"type"};
  s["status/podIPs"] = {"ip"};
  s["status/hostIPs"] = {"ip"};
  s["status/resourceClaimStatuses"] = {"name"};
  return s;
}

MergeSchema NodeSchema() {
  MergeSchema s;
  AddMetadataSchema(&s);
  s["spec/podCIDRs"] = ListStrategy{};
  s["status/conditions"] = {"type"};
  s["status/addresses"] = {"type"};
  return s;
}

Json ZeroMetadata() {
  Json meta = Json::object();
  meta["creationTimestamp"] = nullptr;
  return meta;
}

}  // namespace

ResourceKind PodKind() {
  ResourceKind k;
  k.resource = "pods";
  k.kind = "Pod";
  k.list_kind = "PodList";
  k.namespaced = true;
  k.has_status = true;
  k.has_binding = true;
  k.return_deleted_object = true;
  k.selectable_fields = PodFields;
  k.merge_schema = PodSchema();
  k.zero_value = Json::object();
  k.zero_value["metadata"] = ZeroMetadata();
  k.zero_value["spec"] = {{"containers", nullptr}};
  k.zero_value["status"] = Json::object();
  return k;
}

ResourceKind NodeKind() {
  ResourceKind k;
  k.resource = "nodes";
  k.kind = "Node";
  k.list_kind = "NodeList";
  k.namespaced = false;
  k.has_status = true;
  k.selectable_fields = NodeFields;
  k.merge_schema = NodeSchema();
  Json node_info = Json::object();
  for (const char* field :
       {"machineID", "systemUUID", "bootID", "kernelVersion", "osImage",
        "containerRuntimeVersion", "kubeletVersion", "kubeProxyVersion",
        "operatingSystem", "architecture"}) {
    node_info[field] = "";
  }
  Json status = Json::object();
  status["daemonEndpoints"] = {{"kubeletEndpoint", {{"Port", 0}}}};
  status["nodeInfo"] = std::move(node_info);
  k.zero_value = Json::object();
  k.zero_value["metadata"] = ZeroMetadata();
  k.zero_value["spec"] = Json::object();
  k.zero_value["status"] = std::move(status);
  return k;
}

ResourceKind EventKind() {
  ResourceKind k;
  k.resource = "events";
  k.kind = "Event";
  k.list_kind = "EventList";
  k.namespaced = true;
  k.selectable_fields = EventFields;
  MergeSchema schema;
  AddMetadataSchema(&schema);
  k.merge_schema = std::move(schema);
  k.zero_value = Json::object();
  k.zero_value["metadata"] = ZeroMetadata();
  k.zero_value["involvedObject"] = Json::object();
  k.zero_value["source"] = Json::object();
  k.zero_value["firstTimestamp"] = nullptr;
  k.zero_value["lastTimestamp"] = nullptr;
  k.zero_value["eventTime"] = nullptr;
  k.zero_value["reportingComponent"] = "";
  k.zero_value["reportingInstance"] = "";
  return k;
}

std::string ResourceKind::api_version() const {
  return group.empty() ? version : group + "/" + version;
}

std::string ResourceKind::qualified_resource() const {
  return group.empty() ? resource : resource + "." + group;
}

std::string ResourceKind::qualified_kind() const {
  return group.empty() ? kind : kind + "." + group;
}

ResourceCatalog::ResourceCatalog(std::vector<ResourceKind> more)
    : kinds_({PodKind(), NodeKind(), EventKind()}) {
  for (ResourceKind& k : more) kinds_.push_back(std::move(k));
}

const ResourceKind* ResourceCatalog::Find(std::string_view resource) const {
  return Find("", "v1", resource);
}

const ResourceKind* ResourceCatalog::Find(std::string_view group,
                                          std::string_view version,
                                          std::string_view resource) const {
  for (const ResourceKind& k : kinds_) {
    if (k.group == group && k.version == version && k.resource == resource) {
      return &k;
    }
  }
  return nullptr;
}

bool ResourceCatalog::ServesGroupVersion(std::string_view group,
                                         std::string_view version) const {
  for (const ResourceKind& k : kinds_) {
    if (k.group == group && k.version == version) return true;
  }
  return false;
}

}  // namespace gcushare::apiserver
