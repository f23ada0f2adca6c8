#include "kube/testing/api_objects.h"

namespace gcushare::kube::testing {

nlohmann::json Pod(const std::string& ns, const std::string& name,
                   const std::string& resource_version,
                   const std::string& node) {
  nlohmann::json pod = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata",
       {{"namespace", ns},
        {"name", name},
        {"uid", "uid-" + name},
        {"resourceVersion", resource_version}}},
      {"spec", {{"containers", {{{"name", "main"}, {"image", "busybox"}}}}}},
      {"status", {{"phase", "Pending"}}},
  };
  if (!node.empty()) pod["spec"]["nodeName"] = node;
  return pod;
}

nlohmann::json RealisticPod(const std::string& ns, const std::string& name,
                            const std::string& resource_version) {
  nlohmann::json resources = {
      {"limits",
       {{"cpu", "2"}, {"memory", "4Gi"}, {"enflame.com/gcu-memory", "4"}}},
      {"requests",
       {{"cpu", "500m"}, {"memory", "1Gi"}, {"enflame.com/gcu-memory", "4"}}}};
  nlohmann::json container = {
      {"name", "trainer"},
      {"image", "registry.example.com/ml/trainer:2024.05.01-abcdef0"},
      {"command", {"python3", "-m", "trainer.main"}},
      {"args", {"--epochs=10", "--batch-size=64", "--data=/data/set"}},
      {"env",
       {{{"name", "ENFLAME_VISIBLE_DEVICES"}, {"value", "0"}},
        {{"name", "TOPS_VISIBLE_MEMORY_MIB"}, {"value", "4096"}},
        {{"name", "POD_NAME"},
         {"valueFrom", {{"fieldRef", {{"fieldPath", "metadata.name"}}}}}}}},
      {"resources", resources},
      {"volumeMounts",
       {{{"name", "data"}, {"mountPath", "/data"}},
        {{"name", "kube-api-access-x7k2p"},
         {"mountPath", "/var/run/secrets/kubernetes.io/serviceaccount"},
         {"readOnly", true}}}},
      {"terminationMessagePath", "/dev/termination-log"},
      {"terminationMessagePolicy", "File"},
      {"imagePullPolicy", "IfNotPresent"}};
  nlohmann::json sidecar = {
      {"name", "log-shipper"},
      {"image", "registry.example.com/infra/fluent-bit:2.2.0"},
      {"resources", {{"requests", {{"cpu", "50m"}, {"memory", "64Mi"}}}}}};
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata",
           {{"namespace", ns},
            {"name", name},
            {"generateName", "trainer-7d9f8c6b5-"},
            {"uid", "6f1c2b7e-8a3d-4e5f-9b0a-" + name},
            {"resourceVersion", resource_version},
            {"creationTimestamp", "2024-05-01T12:00:00Z"},
            {"labels",
             {{"app", "trainer"},
              {"pod-template-hash", "7d9f8c6b5"},
              {"team", "ml-platform"}}},
            {"annotations",
             {{"enflame.com/gcu-assigned", "false"},
              {"enflame.com/gcu-request", "4"},
              {"kubectl.kubernetes.io/default-container", "trainer"}}},
            {"ownerReferences",
             {{{"apiVersion", "apps/v1"},
               {"kind", "ReplicaSet"},
               {"name", "trainer-7d9f8c6b5"},
               {"uid", "0a1b2c3d-4e5f-6789-abcd-ef0123456789"},
               {"controller", true},
               {"blockOwnerDeletion", true}}}}}},
          {"spec",
           {{"containers", {container, sidecar}},
            {"schedulerName", "gcushare-scheduler"},
            {"nodeName", "node-17"},
            {"serviceAccountName", "trainer"},
            {"restartPolicy", "Always"},
            {"terminationGracePeriodSeconds", 30},
            {"tolerations",
             {{{"key", "node.kubernetes.io/not-ready"},
               {"operator", "Exists"},
               {"effect", "NoExecute"},
               {"tolerationSeconds", 300}}}},
            {"volumes",
             {{{"name", "data"},
               {"persistentVolumeClaim", {{"claimName", "training-data"}}}}}}}},
          {"status",
           {{"phase", "Running"},
            {"hostIP", "10.0.3.17"},
            {"podIP", "10.244.17.42"},
            {"startTime", "2024-05-01T12:00:05Z"},
            {"qosClass", "Burstable"},
            {"conditions",
             {{{"type", "Initialized"}, {"status", "True"}},
              {{"type", "Ready"}, {"status", "True"}},
              {{"type", "ContainersReady"}, {"status", "True"}},
              {{"type", "PodScheduled"}, {"status", "True"}}}}}}};
}

std::string PodList(const std::vector<nlohmann::json>& items,
                    const std::string& resource_version,
                    const std::string& continue_token) {
  nlohmann::json metadata = {{"resourceVersion", resource_version}};
  if (!continue_token.empty()) metadata["continue"] = continue_token;
  return nlohmann::json{{"kind", "PodList"},
                        {"apiVersion", "v1"},
                        {"metadata", metadata},
                        {"items", items}}
      .dump();
}

std::string WatchLine(const std::string& type, const nlohmann::json& object) {
  return nlohmann::json{{"type", type}, {"object", object}}.dump() + "\n";
}

std::string BookmarkLine(const std::string& resource_version) {
  return WatchLine("BOOKMARK",
                   {{"kind", "Pod"},
                    {"apiVersion", "v1"},
                    {"metadata", {{"resourceVersion", resource_version}}}});
}

nlohmann::json FailureStatus(int code, const std::string& reason,
                             const std::string& message) {
  return {{"kind", "Status"},    {"apiVersion", "v1"}, {"metadata", {}},
          {"status", "Failure"}, {"message", message}, {"reason", reason},
          {"code", code}};
}

}  // namespace gcushare::kube::testing
