// gcushare-device-plugin as a process: --help, --version, refusals with
// clear errors that change nothing, and a real run (seccomp on) against the
// stand-in kubelet and API server, stopped by SIGTERM.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include "contract/names.h"
#include "daemon/version.h"
#include "testing/files.h"
#include "testing/kubeconfig.h"
#include "testing/subprocess.h"
#include "tests/peers/apiserver/testing/test_server.h"
#include "tests/peers/kubelet/stand_in_kubelet.h"

namespace gcushare::deviceplugin {
namespace {

using namespace std::chrono_literals;
using gcushare::testing::ChildProcess;
using gcushare::testing::MakeTempDir;
using gcushare::testing::ReadFileOrEmpty;
using gcushare::testing::RunfilePath;
using gcushare::testing::RunProcess;
using gcushare::testing::WriteFileOrDie;

const char kCards[] = R"(cards:
- index: 0
  uuid: GCU-U0000000001
  memoryMiB: 16384
- index: 1
  uuid: GCU-U0000000002
  memoryMiB: 16384
)";

std::string Binary() {
  return RunfilePath("device-plugin/gcushare-device-plugin");
}

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

TEST(BinaryTest, HelpExplainsEveryFlag) {
  auto r = RunProcess({Binary(), "--help"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
  for (const char* flag :
       {"--kubeconfig", "--log-dir", "--log-level", "--node-name",
        "--memory-unit", "--efml-backend", "--fake-cards",
        "--device-plugin-dir", "--cdi-dir", "--device-specs",
        "--advertise-mode", "--seccomp", "--version"}) {
    EXPECT_NE(r->out.find(flag), std::string::npos) << flag;
  }
  r = RunProcess({Binary(), "--version"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_NE(r->out.find(VersionLine(contract::kDevicePluginName)),
            std::string::npos)
      << r->out;
}

TEST(BinaryTest, UnknownMemoryUnitRefusesToStart) {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/cards.yaml", kCards);
  auto r = RunProcess(
      {Binary(), "--memory-unit=0.5", "--node-name=n1",
       "--fake-cards=" + dir + "/cards.yaml", "--cdi-dir=" + dir + "/cdi",
       "--log-dir=" + dir + "/logs", "--device-plugin-dir=" + dir});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 2);
  EXPECT_NE(r->err.find("unknown memory unit \"0.5\""), std::string::npos)
      << r->err;
  EXPECT_NE(r->err.find("1, 0.1, 0.01, 0.001"), std::string::npos) << r->err;
  EXPECT_FALSE(Exists(dir + "/cdi"));
}

// A kubeconfig in `dir` for an API server that is not there.
void WriteUnreachableKubeconfig(const std::string& dir) {
  gcushare::testing::WriteKubeconfig(dir, 1);  // Nothing listens on 1.
}

TEST(BinaryTest, MissingFakeCardsFileIsAClearError) {
  std::string dir = MakeTempDir();
  WriteUnreachableKubeconfig(dir);
  auto r = RunProcess(
      {Binary(), "--node-name=n1", "--fake-cards=" + dir + "/missing.yaml",
       "--cdi-dir=" + dir + "/cdi", "--log-dir=" + dir + "/logs",
       "--device-plugin-dir=" + dir, "--kubeconfig=" + dir + "/kubeconfig"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 1);
  EXPECT_NE(r->err.find(dir + "/missing.yaml"), std::string::npos) << r->err;
  EXPECT_NE(r->err.find("fake backend"), std::string::npos) << r->err;
  EXPECT_FALSE(Exists(dir + "/cdi"));
  EXPECT_FALSE(Exists(dir + "/gcushare-gcu-memory.sock"));
}

// A fake-cards file nested 200k deep (400 KB) is an error naming the file
// and the limit, not a stack overflow; nothing is written.
TEST(BinaryTest, DeeplyNestedFakeCardsFileIsAClearError) {
  std::string dir = MakeTempDir();
  WriteUnreachableKubeconfig(dir);
  WriteFileOrDie(dir + "/cards.yaml", "cards: " + std::string(200000, '[') +
                                          std::string(200000, ']') + "\n");
  auto r = RunProcess(
      {Binary(), "--node-name=n1", "--fake-cards=" + dir + "/cards.yaml",
       "--cdi-dir=" + dir + "/cdi", "--log-dir=" + dir + "/logs",
       "--device-plugin-dir=" + dir, "--kubeconfig=" + dir + "/kubeconfig"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 1) << r->err.substr(0, 300);
  EXPECT_NE(r->err.find(dir + "/cards.yaml"), std::string::npos) << r->err;
  EXPECT_NE(r->err.find("YAML nested deeper than 256 levels"),
            std::string::npos)
      << r->err.substr(0, 300);
  EXPECT_FALSE(Exists(dir + "/cdi"));
  EXPECT_FALSE(Exists(dir + "/gcushare-gcu-memory.sock"));
}

TEST(BinaryTest, RunsConfinedAgainstStandInsAndStopsOnSigterm) {
  std::string dir = MakeTempDir();
  std::string plugin_dir = dir + "/dp";
  ASSERT_EQ(::mkdir(plugin_dir.c_str(), 0755), 0);
  WriteFileOrDie(dir + "/cards.yaml", kCards);
  apiserver::testing::TestServer api;
  api.CreateNode("n1");
  gcushare::testing::WriteKubeconfig(dir, api.port());
  peers::kubelet::StandInKubelet kubelet(plugin_dir);
  ASSERT_TRUE(kubelet.Start().ok());

  ChildProcess plugin;
  ASSERT_TRUE(
      plugin
          .Start({Binary(), "--node-name=n1", "--memory-unit=0.1",
                  "--fake-cards=" + dir + "/cards.yaml",
                  "--cdi-dir=" + dir + "/cdi",
                  "--device-plugin-dir=" + plugin_dir,
                  "--kubeconfig=" + dir + "/kubeconfig",
                  "--log-dir=" + dir + "/logs", "--socket-poll-interval=0.1"})
          .ok());
  ASSERT_TRUE(plugin.WaitForOutput("ready on node n1", 30s).ok())
      << plugin.output();
  EXPECT_NE(plugin.output().find("seccomp: confined"), std::string::npos);
  const std::string resource(contract::kResourceMemory);
  ASSERT_TRUE(kubelet.WaitUntil(
      [&](const peers::kubelet::KubeletView& v) {
        auto it = v.resources.find(resource);
        return it != v.resources.end() && it->second.devices.size() == 320;
      },
      30s))
      << plugin.output();

  // Allocate through the confined process.
  nlohmann::json pod = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata",
       {{"name", "p"},
        {"annotations",
         {{"enflame.com/gcu-device-id", "1"},
          {"enflame.com/gcu-device-assigned", "false"},
          {"enflame.com/gcu-device-assign-time", "5"},
          {"enflame.com/gcu-container-devices", "{\"main\":[1]}"}}}}},
      {"spec",
       {{"nodeName", "n1"},
        {"containers",
         {{{"name", "main"},
           {"image", "x"},
           {"resources", {{"limits", {{resource, "40"}}}}}}}}}}};
  ASSERT_EQ(api.Post("/api/v1/namespaces/default/pods", pod.dump()).status,
            201);
  auto allocation = kubelet.AllocateContainer(resource, 40);
  ASSERT_TRUE(allocation.ok()) << allocation.status() << plugin.output();
  EXPECT_EQ(allocation->response.envs().at("GCUSHARE_MEMORY_LIMIT_MB"), "4096");
  EXPECT_EQ(
      api.Get("/api/v1/namespaces/default/pods/p")
          .json["metadata"]["annotations"]["enflame.com/gcu-device-assigned"],
      "true");
  EXPECT_TRUE(Exists(dir + "/cdi/enflame.com-gcu.json"));

  // A kubelet restart is noticed by the confined process too.
  ASSERT_TRUE(kubelet.Restart().ok());
  ASSERT_TRUE(kubelet.WaitUntil(
      [](const peers::kubelet::KubeletView& v) {
        return v.registrations.size() == 2;
      },
      30s))
      << plugin.output();

  ASSERT_TRUE(plugin.Signal(SIGTERM).ok());
  auto done = plugin.Wait(30s);
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->exit_code, 0) << plugin.output();
  EXPECT_NE(plugin.output().find("stopped cleanly"), std::string::npos);
  // Its own seccomp list covers every call it made.
  EXPECT_EQ(plugin.output().find("seccomp: denied"), std::string::npos)
      << plugin.output();
  EXPECT_FALSE(Exists(plugin_dir + "/gcushare-gcu-memory.sock"));
  EXPECT_NE(ReadFileOrEmpty(dir + "/logs/gcushare-device-plugin.log")
                .find("registered enflame.com/gcu-memory"),
            std::string::npos);
}

}  // namespace
}  // namespace gcushare::deviceplugin
