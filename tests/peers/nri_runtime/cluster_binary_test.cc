// The nri-runtime binary in cluster mode, with the stand-in API server
// binary and the real gcushare-nri-plugin binary, as the end-to-end tests
// and the README demo run them: flags, the output lines, an API server
// crash and restart, SIGTERM, and a runtime restart (through --kubeconfig)
// that synchronizes the Running pods without creating them again.
#include <gtest/gtest.h>
#include <signal.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "kube/curl_kube_client.h"
#include "kube/json_fields.h"
#include "testing/files.h"
#include "testing/subprocess.h"
#include "tests/peers/apiserver/testing/apiserver_process.h"
#include "tests/peers/nri_runtime/cluster_test_support.h"

namespace gcushare::nri_runtime {
namespace {

using ::gcushare::nri_runtime::testing::DevRoot;
using ::gcushare::nri_runtime::testing::GcuPod;
using ::gcushare::nri_runtime::testing::PluginArgv;
using ::gcushare::testing::ChildProcess;
using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::ReadFileOrEmpty;
using ::gcushare::testing::RunfilePath;
using ::gcushare::testing::RunProcess;
using ::gcushare::testing::WriteFileOrDie;
using std::chrono::seconds;

std::string Binary() {
  return RunfilePath("tests/peers/nri_runtime/nri-runtime");
}

// Whether an output line (JSON or "running") is about `pod`; log lines on
// stderr share the stream and are not counted.
bool Mentions(const std::string& output, const std::string& pod) {
  return output.find("{\"pod\":\"" + pod + "\"") != std::string::npos ||
         output.find("running " + pod + "\n") != std::string::npos;
}

TEST(ClusterBinaryTest, HelpNamesTheClusterFlags) {
  auto help = RunProcess({Binary(), "--help"});
  ASSERT_TRUE(help.ok());
  EXPECT_EQ(help->exit_code, 0);
  for (const char* flag :
       {"--apiserver", "--kubeconfig", "--node-name", "--poll-interval"}) {
    EXPECT_NE(help->out.find(flag), std::string::npos) << flag;
  }
}

TEST(ClusterBinaryTest, BadClusterFlags) {
  std::string dir = MakeTempDir();
  auto no_node =
      RunProcess({Binary(), "--socket=" + dir + "/nri.sock",
                  "--apiserver=http://127.0.0.1:1", "--log-dir=" + dir});
  ASSERT_TRUE(no_node.ok());
  EXPECT_EQ(no_node->exit_code, 1);
  EXPECT_NE(no_node->err.find("--node-name"), std::string::npos)
      << no_node->err;
  auto both = RunProcess({Binary(), "--socket=" + dir + "/nri.sock",
                          "--apiserver=http://127.0.0.1:1",
                          "--kubeconfig=" + dir + "/kc", "--node-name=n"});
  ASSERT_TRUE(both.ok());
  EXPECT_NE(both->exit_code, 0);
  auto missing = RunProcess({Binary(), "--socket=" + dir + "/nri.sock",
                             "--kubeconfig=" + dir + "/absent", "--node-name=n",
                             "--log-dir=" + dir});
  ASSERT_TRUE(missing.ok());
  EXPECT_EQ(missing->exit_code, 1);
  EXPECT_NE(missing->err.find("absent"), std::string::npos) << missing->err;
}

TEST(ClusterBinaryTest, CreatesPodsFromTheApiServerUntilSigterm) {
  std::string dir = MakeTempDir();
  std::string socket = dir + "/nri.sock";
  apiserver::testing::ApiserverProcess apiserver(
      {"--state-file=" + dir + "/state.json"});
  ASSERT_TRUE(apiserver.Start().ok());
  kube::ClientConfig config;
  config.server = apiserver.url();
  auto client = kube::CurlKubeClient::Create(config);
  ASSERT_TRUE(client.ok());
  auto create = [&](const nlohmann::json& pod) {
    auto created = (*client)->Create(kube::Resource::Pods(), "default", pod);
    ASSERT_TRUE(created.ok()) << created.status();
  };
  create(GcuPod("gcu", "n1", 3, 4, true));
  create(GcuPod("unassigned", "n1", 1, 4, false));

  ChildProcess plugin;
  ASSERT_TRUE(plugin.Start(PluginArgv(socket, DevRoot(4), dir)).ok());
  ChildProcess runtime;
  ASSERT_TRUE(runtime
                  .Start({Binary(), "--socket=" + socket,
                          "--apiserver=" + apiserver.url(), "--node-name=n1",
                          "--poll-interval=0.05", "--log-dir=" + dir})
                  .ok());
  ASSERT_TRUE(runtime.WaitForOutput("running default/gcu", seconds(60)).ok())
      << runtime.output() << plugin.output();
  const std::string& out = runtime.output();
  EXPECT_NE(out.find("listening on unix:" + socket + "\n"), std::string::npos)
      << out;
  EXPECT_NE(out.find("plugin gcushare (index 10) registered, events 0x8\n"
                     "synchronized 0 pods 0 containers\n"),
            std::string::npos)
      << out;
  nlohmann::json line;
  std::istringstream lines(out);
  for (std::string l; std::getline(lines, l);) {
    if (!l.empty() && l[0] == '{') line = nlohmann::json::parse(l);
  }
  EXPECT_EQ(line["pod"], "default/gcu");
  EXPECT_EQ(line["container"], "main");
  ASSERT_EQ(line["spec"]["linux"]["devices"].size(), 1u) << line.dump();
  EXPECT_EQ(line["spec"]["linux"]["devices"][0]["path"], "/dev/gcu3");
  auto pod = (*client)->Get(kube::Resource::Pods(), "default", "gcu");
  ASSERT_TRUE(pod.ok());
  EXPECT_EQ(kube::StringAt(*pod, {"status", "phase"}), "Running");

  // The API server crashes and comes back (objects kept in its state
  // file): the runtime survives and goes on. The outage lasts until the
  // runtime has said it saw it, so no poll interval can hide it.
  ASSERT_TRUE(apiserver.Kill().ok());
  ASSERT_TRUE(runtime.WaitForOutput("API server unavailable", seconds(60)).ok())
      << runtime.output();
  ASSERT_TRUE(apiserver.Restart().ok());
  ASSERT_TRUE(
      runtime.WaitForOutput("API server reachable again", seconds(60)).ok())
      << runtime.output();
  create(GcuPod("later", "n1", 2, 4, true));
  ASSERT_TRUE(runtime.WaitForOutput("running default/later", seconds(60)).ok())
      << runtime.output();

  ASSERT_TRUE(runtime.Signal(SIGTERM).ok());
  auto done = runtime.Wait(seconds(30));
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->exit_code, 0) << runtime.output();
  EXPECT_FALSE(Mentions(runtime.output(), "default/unassigned"))
      << runtime.output();
  std::string log = ReadFileOrEmpty(dir + "/gcushare-test-nri-runtime.log");
  EXPECT_NE(log.find("API server unavailable"), std::string::npos) << log;
  EXPECT_NE(log.find("API server reachable again"), std::string::npos) << log;
  EXPECT_NE(log.find("seccomp"), std::string::npos) << log;

  // Restarted through a kubeconfig: the two Running pods are synchronized
  // to the (reconnecting) plugin and not created again.
  std::string kubeconfig = dir + "/kubeconfig";
  WriteFileOrDie(kubeconfig,
                 "apiVersion: v1\nkind: Config\ncurrent-context: c\n"
                 "clusters:\n- name: k\n  cluster:\n    server: " +
                     apiserver.url() +
                     "\nusers:\n- name: u\n  user: {}\n"
                     "contexts:\n- name: c\n  context:\n    cluster: k\n"
                     "    user: u\n");
  ChildProcess again;
  ASSERT_TRUE(
      again
          .Start({Binary(), "--socket=" + socket, "--kubeconfig=" + kubeconfig,
                  "--node-name=n1", "--poll-interval=0.05", "--log-dir=" + dir})
          .ok());
  ASSERT_TRUE(
      again.WaitForOutput("synchronized 2 pods 2 containers\n", seconds(60))
          .ok())
      << again.output() << plugin.output();
  create(GcuPod("last", "n1", 0, 4, true));
  ASSERT_TRUE(again.WaitForOutput("running default/last", seconds(60)).ok())
      << again.output();
  EXPECT_FALSE(Mentions(again.output(), "default/gcu")) << again.output();
  EXPECT_FALSE(Mentions(again.output(), "default/later")) << again.output();
  ASSERT_TRUE(again.Signal(SIGTERM).ok());
  auto stopped = again.Wait(seconds(30));
  ASSERT_TRUE(stopped.ok());
  EXPECT_EQ(stopped->exit_code, 0) << again.output();
}

}  // namespace
}  // namespace gcushare::nri_runtime
