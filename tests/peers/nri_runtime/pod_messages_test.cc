#include "tests/peers/nri_runtime/pod_messages.h"

#include <gtest/gtest.h>

#include <vector>

namespace gcushare::nri_runtime {
namespace {

nlohmann::json Pod() {
  return nlohmann::json::parse(R"({
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "web", "namespace": "team",
                 "uid": "0b7e5a52-1f2c-4d3e-9a8b-123456789abc",
                 "labels": {"app": "web"},
                 "annotations": {"enflame.com/gcu-device-id": "2",
                                 "enflame.com/gcu-device-assigned": "true"}},
    "spec": {"nodeName": "n1", "containers": [
      {"name": "main", "image": "busybox:1.36",
       "command": ["/bin/sh"], "args": ["-c", "sleep 1"],
       "env": [{"name": "FOO", "value": "bar"},
               {"name": "POD", "valueFrom": {"fieldRef":
                   {"fieldPath": "metadata.name"}}},
               {"name": "EMPTY", "value": ""}]},
      {"name": "side"}]}})");
}

TEST(PodMessagesTest, SandboxCarriesThePodsIdentityAndEveryAnnotation) {
  api::PodSandbox s = SandboxFromPod(Pod());
  EXPECT_EQ(s.name(), "web");
  EXPECT_EQ(s.namespace_(), "team");
  EXPECT_EQ(s.uid(), "0b7e5a52-1f2c-4d3e-9a8b-123456789abc");
  EXPECT_EQ(s.id().size(), 64u);
  EXPECT_EQ(s.labels().at("app"), "web");
  EXPECT_EQ(s.labels().at("io.kubernetes.pod.uid"), s.uid());
  EXPECT_EQ(s.annotations().at("enflame.com/gcu-device-id"), "2");
  EXPECT_EQ(s.annotations().at("enflame.com/gcu-device-assigned"), "true");
  EXPECT_EQ(s.annotations().at("io.kubernetes.cri.sandbox-uid"), s.uid());
  EXPECT_EQ(s.linux().cgroup_parent(), "/kubepods/besteffort/pod" + s.uid());
  // Same pod, same ids; another uid, other ids.
  EXPECT_EQ(SandboxFromPod(Pod()).id(), s.id());
  nlohmann::json other = Pod();
  other["metadata"]["uid"] = "1b7e5a52-1f2c-4d3e-9a8b-123456789abc";
  EXPECT_NE(SandboxFromPod(other).id(), s.id());
}

TEST(PodMessagesTest, ContainerTakesNameImageArgsAndPlainEnv) {
  nlohmann::json pod = Pod();
  api::PodSandbox s = SandboxFromPod(pod);
  api::Container c = ContainerFromPod(s, pod["spec"]["containers"][0]);
  EXPECT_EQ(c.name(), "main");
  EXPECT_EQ(c.pod_sandbox_id(), s.id());
  EXPECT_EQ(c.state(), api::CONTAINER_UNKNOWN);
  EXPECT_EQ(c.annotations().at("io.kubernetes.cri.image-name"), "busybox:1.36");
  EXPECT_EQ(std::vector<std::string>(c.args().begin(), c.args().end()),
            (std::vector<std::string>{"/bin/sh", "-c", "sleep 1"}));
  std::vector<std::string> env(c.env().begin(), c.env().end());
  const std::string path =
      "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  EXPECT_EQ(env, (std::vector<std::string>{
                     path, "HOSTNAME=web", "FOO=bar",
                     "EMPTY=", "KUBERNETES_SERVICE_HOST=10.96.0.1",
                     "KUBERNETES_SERVICE_PORT=443"}));
  api::Container side = ContainerFromPod(s, pod["spec"]["containers"][1]);
  EXPECT_EQ(side.name(), "side");
  EXPECT_NE(side.id(), c.id());
  EXPECT_GT(side.args_size(), 0);  // The image's default command.
}

}  // namespace
}  // namespace gcushare::nri_runtime
