#include "extender/testing/scale_cluster.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "extender/testing/objects.h"
#include "tests/peers/apiserver/json.h"
#include "tests/peers/apiserver/object_meta.h"

namespace gcushare::extender::testing {
namespace {

using nlohmann::json;

std::string Uid(const char* kind, int i) {
  char text[40];
  std::snprintf(text, sizeof(text), "%08x-%04x-4000-8000-%012d",
                static_cast<unsigned>(i), kind[0] == 'n' ? 1 : 2, i);
  return text;
}

Status Put(apiserver::ObjectStore& store, const std::string& resource,
           const std::string& key, const json& object) {
  // The store keeps nlohmann::ordered_json; the objects come from the
  // extender's helpers as nlohmann::json. Canonical key order, as objects
  // created over HTTP get it (kind and apiVersion first).
  apiserver::Json stored = apiserver::Json::parse(object.dump());
  apiserver::CanonicalizeObject(stored);
  return store.Create(resource, key, std::move(stored)).status();
}

}  // namespace

std::string ScaleNodeName(int i) { return "node-" + std::to_string(i); }

json ScaleNode(const ScaleClusterSpec& spec, int i) {
  const std::string name = ScaleNodeName(i);
  json node = SharingNode(name, spec.cards_per_node, spec.units_per_card);
  node["metadata"]["uid"] = Uid("node", i);
  node["metadata"]["creationTimestamp"] = "2026-11-01T08:00:00Z";
  json& labels = node["metadata"]["labels"];
  labels["beta.kubernetes.io/arch"] = "amd64";
  labels["beta.kubernetes.io/os"] = "linux";
  labels["kubernetes.io/arch"] = "amd64";
  labels["kubernetes.io/os"] = "linux";
  labels["topology.kubernetes.io/zone"] = "zone-" + std::to_string(i % 3);
  node["metadata"]["annotations"]["node.alpha.kubernetes.io/ttl"] = "0";
  node["metadata"]["annotations"]
      ["volumes.kubernetes.io/controller-managed-attach-detach"] = "true";
  node["spec"]["podCIDR"] =
      "10." + std::to_string(i / 256) + "." + std::to_string(i % 256) + ".0/24";
  json& status = node["status"];
  for (const char* what : {"capacity", "allocatable"}) {
    status[what]["cpu"] = "96";
    status[what]["memory"] = "790000000Ki";
    status[what]["pods"] = "110";
    status[what]["ephemeral-storage"] = "1870000000Ki";
  }
  json conditions = json::array();
  for (const char* type :
       {"MemoryPressure", "DiskPressure", "PIDPressure", "Ready"}) {
    conditions.push_back(
        {{"type", type},
         {"status", std::string(type) == "Ready" ? "True" : "False"},
         {"lastHeartbeatTime", "2026-11-24T10:00:00Z"},
         {"lastTransitionTime", "2026-11-01T08:00:00Z"},
         {"reason", std::string("Kubelet") + type},
         {"message", "kubelet reports its condition"}});
  }
  status["conditions"] = conditions;
  status["addresses"] = {{{"type", "InternalIP"},
                          {"address", "10.0." + std::to_string(i / 256) + "." +
                                          std::to_string(i % 256)}},
                         {{"type", "Hostname"}, {"address", name}}};
  status["nodeInfo"] = {{"machineID", Uid("node", i)},
                        {"systemUUID", Uid("node", i)},
                        {"bootID", Uid("node", i)},
                        {"kernelVersion", "5.15.0-91-generic"},
                        {"osImage", "Ubuntu 22.04.3 LTS"},
                        {"containerRuntimeVersion", "containerd://1.7.2"},
                        {"kubeletVersion", "v1.26.9"},
                        {"kubeProxyVersion", "v1.26.9"},
                        {"operatingSystem", "linux"},
                        {"architecture", "amd64"}};
  json images = json::array();
  for (int k = 0; k < 12; ++k) {
    images.push_back(
        {{"names",
          {"registry.example.com/team/app-" + std::to_string(k) +
               "@sha256:0123456789abcdef0123456789abcdef0123456789abcdef"
               "0123456789abcdef",
           "registry.example.com/team/app-" + std::to_string(k) + ":v1.2.3"}},
         {"sizeBytes", 123456789 + k}});
  }
  status["images"] = images;
  return node;
}

void AddRealisticPodFields(json& pod, int i) {
  json& meta = pod["metadata"];
  meta["labels"] = {{"app", "app-" + std::to_string(i % 97)},
                    {"pod-template-hash", "5d8f7c9b4" + std::to_string(i % 10)},
                    {"tier", "backend"}};
  meta["generateName"] = "app-" + std::to_string(i % 97) + "-5d8f7c9b4-";
  meta["ownerReferences"] = {
      {{"apiVersion", "apps/v1"},
       {"kind", "ReplicaSet"},
       {"name", "app-" + std::to_string(i % 97) + "-5d8f7c9b4"},
       {"uid", Uid("rs", i % 97)},
       {"controller", true},
       {"blockOwnerDeletion", true}}};
  json& spec = pod["spec"];
  json env = json::array();
  for (int k = 0; k < 5; ++k) {
    env.push_back({{"name", "SETTING_" + std::to_string(k)},
                   {"value", "value-" + std::to_string(k)}});
  }
  for (json& c : spec["containers"]) {
    c["env"] = env;
    c["imagePullPolicy"] = "IfNotPresent";
    c["terminationMessagePath"] = "/dev/termination-log";
    c["terminationMessagePolicy"] = "File";
    c["resources"]["requests"]["cpu"] = "500m";
    c["resources"]["requests"]["memory"] = "512Mi";
    c["volumeMounts"] = {
        {{"name", "kube-api-access"},
         {"mountPath", "/var/run/secrets/kubernetes.io/serviceaccount"},
         {"readOnly", true}}};
  }
  spec["containers"].push_back(
      {{"name", "log-shipper"},
       {"image", "registry.example.com/infra/log-shipper:v3.1.0"},
       {"resources",
        {{"requests", {{"cpu", "50m"}, {"memory", "64Mi"}}},
         {"limits", {{"cpu", "100m"}, {"memory", "128Mi"}}}}}});
  spec["restartPolicy"] = "Always";
  spec["terminationGracePeriodSeconds"] = 30;
  spec["dnsPolicy"] = "ClusterFirst";
  spec["serviceAccountName"] = "default";
  spec["priority"] = 0;
  spec["enableServiceLinks"] = true;
  spec["preemptionPolicy"] = "PreemptLowerPriority";
  spec["tolerations"] = {{{"key", "node.kubernetes.io/not-ready"},
                          {"operator", "Exists"},
                          {"effect", "NoExecute"},
                          {"tolerationSeconds", 300}},
                         {{"key", "node.kubernetes.io/unreachable"},
                          {"operator", "Exists"},
                          {"effect", "NoExecute"},
                          {"tolerationSeconds", 300}}};
  json sources = json::array();
  sources.push_back({{"serviceAccountToken",
                      {{"expirationSeconds", 3607}, {"path", "token"}}}});
  json items = json::array();
  items.push_back({{"key", "ca.crt"}, {"path", "ca.crt"}});
  sources.push_back(
      {{"configMap", {{"name", "kube-root-ca.crt"}, {"items", items}}}});
  json volume = {{"name", "kube-api-access"},
                 {"projected", {{"defaultMode", 420}, {"sources", sources}}}};
  spec["volumes"] = json::array({volume});
  json& status = pod["status"];
  status["qosClass"] = "Burstable";
  status["podIP"] =
      "10.1." + std::to_string(i / 256 % 256) + "." + std::to_string(i % 256);
  status["hostIP"] = "10.0.0.1";
  status["startTime"] = "2026-11-23T10:00:05Z";
  json conditions = json::array();
  for (const char* type :
       {"Initialized", "Ready", "ContainersReady", "PodScheduled"}) {
    conditions.push_back({{"type", type},
                          {"status", "True"},
                          {"lastTransitionTime", "2026-11-23T10:00:09Z"}});
  }
  status["conditions"] = conditions;
}

json ScalePod(const ScaleClusterSpec& spec, int i, std::mt19937& rng) {
  const std::string ns = "team-" + std::to_string(i % spec.namespaces);
  const std::string name = "app-" + std::to_string(i);
  const std::string node = ScaleNodeName(i % spec.nodes);
  json pod;
  // Interleaved: gcu_pods of the gcu_pods + plain_pods pods ask for GCU
  // memory (1-3 units), spread evenly (pod i is GCU pod g = i x gcu / all
  // when i x gcu mod all < gcu: with the defaults every third pod, with no
  // plain pods every pod). GCU pods go round-robin over nodes, then cards,
  // so no card holds more than its memory while gcu_pods <= nodes x cards
  // x (units_per_card / 3): the benchmark's over-commit check then counts
  // only what its binds did. (Placing them by i % nodes put them on every
  // third node only when nodes is a multiple of 3, over-committing cards
  // at small sizes.)
  const int64_t all = int64_t{spec.gcu_pods} + spec.plain_pods;
  const int64_t scaled = int64_t{i} * spec.gcu_pods;
  if (all > 0 && scaled % all < spec.gcu_pods) {
    const int g = static_cast<int>(scaled / all);
    const uint32_t card =
        static_cast<uint32_t>((g / spec.nodes) % spec.cards_per_node);
    pod = Assigned(Pod(ns, name, Uid("pod", i), {{"main", 1 + rng() % 3, 0}}),
                   ScaleNodeName(g % spec.nodes), {card}, spec.units_per_card);
  } else {
    pod = Pod(ns, name, Uid("pod", i), {{"main", 0, 0}});
    pod["spec"]["nodeName"] = node;
    pod["status"]["phase"] = "Running";
  }
  AddRealisticPodFields(pod, i);
  return pod;
}

Status FillScaleCluster(const ScaleClusterSpec& spec,
                        apiserver::ObjectStore& store) {
  std::mt19937 rng(spec.seed);
  for (int i = 0; i < spec.nodes; ++i) {
    GCUSHARE_RETURN_IF_ERROR(
        Put(store, "nodes", ScaleNodeName(i), ScaleNode(spec, i)));
  }
  const int total = spec.gcu_pods + spec.plain_pods;
  for (int i = 0; i < total; ++i) {
    json pod = ScalePod(spec, i, rng);
    const std::string key = pod["metadata"]["namespace"].get<std::string>() +
                            "/" + pod["metadata"]["name"].get<std::string>();
    GCUSHARE_RETURN_IF_ERROR(Put(store, "pods", key, pod));
  }
  return OkStatus();
}

}  // namespace gcushare::extender::testing
