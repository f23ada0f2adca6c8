// gcushare-device-plugin as a real process (seccomp on) with
// --metrics-port: /metrics over HTTP shows the cards' health, the node
// patch and an Allocate that found no pod.
#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/stat.h>

#include <string>

#include "contract/names.h"
#include "testing/files.h"
#include "testing/free_port.h"
#include "testing/kubeconfig.h"
#include "testing/subprocess.h"
#include "tests/peers/apiserver/testing/test_server.h"
#include "tests/peers/kubelet/stand_in_kubelet.h"

namespace gcushare::deviceplugin {
namespace {

using namespace std::chrono_literals;
using gcushare::testing::ChildProcess;
using gcushare::testing::MakeTempDir;
using gcushare::testing::RunfilePath;
using gcushare::testing::RunProcess;
using gcushare::testing::WriteFileOrDie;

std::string Binary() {
  return RunfilePath("device-plugin/gcushare-device-plugin");
}

TEST(MetricsBinaryTest, HelpExplainsTheMetricsFlags) {
  auto help = RunProcess({Binary(), "--help"});
  ASSERT_TRUE(help.ok());
  EXPECT_NE(help->out.find("--metrics-port"), std::string::npos);
  EXPECT_NE(help->out.find("--metrics-address"), std::string::npos);
}

TEST(MetricsBinaryTest, ServesMetricsOfWhatItDid) {
  std::string dir = MakeTempDir();
  std::string plugin_dir = dir + "/dp";
  ASSERT_EQ(::mkdir(plugin_dir.c_str(), 0755), 0);
  WriteFileOrDie(dir + "/cards.yaml",
                 "cards:\n- index: 0\n  uuid: GCU-U0000000001\n"
                 "  memoryMiB: 16384\n  healthy: false\n- index: 1\n"
                 "  uuid: GCU-U0000000002\n  memoryMiB: 16384\n");
  apiserver::testing::TestServer api;
  api.CreateNode("n1");
  gcushare::testing::WriteKubeconfig(dir, api.port());
  peers::kubelet::StandInKubelet kubelet(plugin_dir);
  ASSERT_TRUE(kubelet.Start().ok());
  const int port = gcushare::testing::FreeTcpPort();
  ChildProcess plugin;
  ASSERT_TRUE(plugin
                  .Start({Binary(), "--node-name=n1",
                          "--fake-cards=" + dir + "/cards.yaml",
                          "--cdi-dir=" + dir + "/cdi",
                          "--device-plugin-dir=" + plugin_dir,
                          "--kubeconfig=" + dir + "/kubeconfig",
                          "--log-dir=" + dir + "/logs",
                          "--metrics-port=" + std::to_string(port),
                          "--metrics-address=127.0.0.1"})
                  .ok());
  ASSERT_TRUE(plugin.WaitForOutput("ready on node n1", 30s).ok())
      << plugin.output();
  EXPECT_NE(plugin.output().find("metrics on http://127.0.0.1:" +
                                 std::to_string(port) + "/metrics"),
            std::string::npos)
      << plugin.output();
  const std::string resource(contract::kResourceMemory);
  ASSERT_TRUE(kubelet.WaitUntil(
      [&](const peers::kubelet::KubeletView& v) {
        auto it = v.resources.find(resource);
        return it != v.resources.end() && it->second.devices.size() == 32;
      },
      30s))
      << plugin.output();
  // No pod waits for this: refused, and counted.
  ASSERT_FALSE(kubelet.AllocateContainer(resource, 4).ok());

  httplib::Client client("127.0.0.1", port);
  auto res = client.Get("/metrics");
  ASSERT_TRUE(res) << plugin.output();
  EXPECT_EQ(res->status, 200);
  for (const char* sample :
       {"gcushare_device_plugin_card_healthy{node=\"n1\",card=\"0\"} 0\n",
        "gcushare_device_plugin_card_healthy{node=\"n1\",card=\"1\"} 1\n",
        "gcushare_device_plugin_allocations_total{result=\"error\"} 1\n",
        "gcushare_device_plugin_allocate_failures_total{reason=\"no_pod\"} "
        "1\n"}) {
    EXPECT_NE(res->body.find(sample), std::string::npos) << sample << res->body;
  }

  ASSERT_TRUE(plugin.Signal(SIGTERM).ok());
  auto done = plugin.Wait(30s);
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->exit_code, 0) << plugin.output();
}

}  // namespace
}  // namespace gcushare::deviceplugin
