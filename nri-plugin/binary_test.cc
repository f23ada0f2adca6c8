// gcushare-nri-plugin as a real process: flags, version, logs, seccomp,
// SIGTERM, and container adjustments against the stand-in runtime (the
// library and the nri-runtime binary), with /dev/gcu<N> stand-in nodes
// that are symlinks to /dev/null.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "contract/annotations.h"
#include "daemon/version.h"
#include "testing/files.h"
#include "testing/subprocess.h"
#include "tests/peers/nri_runtime/fixtures.h"
#include "tests/peers/nri_runtime/runtime.h"

namespace gcushare::nri {
namespace {

namespace rt = ::gcushare::nri_runtime;
namespace api = rt::api;
using ::gcushare::testing::ChildProcess;
using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::ReadFileOrEmpty;
using ::gcushare::testing::RunfilePath;
using ::gcushare::testing::RunProcess;
using ::gcushare::testing::WriteFileOrDie;
using std::chrono::seconds;

std::string Binary() { return RunfilePath("nri-plugin/gcushare-nri-plugin"); }

// A directory with dev/gcu0..dev/gcu<n-1> pointing at /dev/null.
std::string DevRoot(int n) {
  std::string root = MakeTempDir();
  ::mkdir((root + "/dev").c_str(), 0755);
  for (int i = 0; i < n; ++i) {
    std::string path = root + "/dev/gcu" + std::to_string(i);
    EXPECT_EQ(::symlink("/dev/null", path.c_str()), 0);
  }
  return root;
}

TEST(NriPluginBinaryTest, HelpAndVersion) {
  auto help = RunProcess({Binary(), "--help"});
  ASSERT_TRUE(help.ok());
  EXPECT_EQ(help->exit_code, 0);
  for (const char* flag :
       {"--nri-socket", "--plugin-index", "--node-name", "--kubeconfig",
        "--memory-unit", "--dev-root", "--log-dir", "--log-level", "--seccomp",
        "/var/run/nri/nri.sock"}) {
    EXPECT_NE(help->out.find(flag), std::string::npos) << flag;
  }
  auto version = RunProcess({Binary(), "--version"});
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(version->out,
            "gcushare-nri-plugin " + std::string(Version()) + "\n");
}

TEST(NriPluginBinaryTest, BadFlags) {
  auto index = RunProcess({Binary(), "--plugin-index=100"});
  ASSERT_TRUE(index.ok());
  EXPECT_EQ(index->exit_code, 2);
  auto unit =
      RunProcess({Binary(), "--memory-unit=0.5", "--log-dir=" + MakeTempDir()});
  ASSERT_TRUE(unit.ok());
  EXPECT_EQ(unit->exit_code, 1);
  EXPECT_NE(unit->err.find("--memory-unit"), std::string::npos) << unit->err;
}

// With API server access the node's name is required: without it there is
// no watch of the node's pods, and a card would go to anyone whose
// annotations name one.
TEST(NriPluginBinaryTest, ApiAccessWithoutNodeNameRefusesToStart) {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/kubeconfig",
                 "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n"
                 "  cluster:\n    server: http://127.0.0.1:1\ncontexts:\n"
                 "- name: x\n  context:\n    cluster: c\n"
                 "current-context: x\n");
  auto r = RunProcess(
      {"/usr/bin/env", "-u", "NODE_NAME", Binary(),
       "--kubeconfig=" + dir + "/kubeconfig",
       "--nri-socket=" + dir + "/nri.sock", "--log-dir=" + dir + "/logs"},
      "", seconds(30));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->exit_code, 1) << r->err;
  EXPECT_NE(r->err.find("--node-name"), std::string::npos) << r->err;
}

// In a cluster ($KUBERNETES_SERVICE_HOST set) without a readable service
// account the plugin refuses to start instead of trusting annotations.
TEST(NriPluginBinaryTest, InClusterWithoutServiceAccountRefusesToStart) {
  std::string dir = MakeTempDir();
  auto r = RunProcess(
      {"/usr/bin/env", "KUBERNETES_SERVICE_HOST=127.0.0.1",
       "KUBERNETES_SERVICE_PORT=1", Binary(), "--node-name=n1",
       "--nri-socket=" + dir + "/nri.sock", "--log-dir=" + dir + "/logs"},
      "", seconds(30));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->exit_code, 1) << r->err;
  EXPECT_NE(r->err.find("service account token"), std::string::npos) << r->err;
}

TEST(NriPluginBinaryTest, AdjustsContainersAndStopsOnSigterm) {
  std::string dir = MakeTempDir();
  rt::RuntimeOptions options;
  options.socket_path = dir + "/nri.sock";
  auto runtime = rt::NriRuntime::Listen(options);
  ASSERT_TRUE(runtime.ok());
  ChildProcess plugin;
  ASSERT_TRUE(plugin
                  .Start({Binary(), "--nri-socket=" + options.socket_path,
                          "--dev-root=" + DevRoot(4), "--log-dir=" + dir,
                          "--plugin-index=7", "--memory-unit=0.1"})
                  .ok());
  auto conn = (*runtime)->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status() << plugin.output();
  EXPECT_EQ((*conn)->plugin_index(), "07");

  contract::CardAssignment a;
  a.cards = {2};
  a.request_units = 40;
  a.card_memory_units = 160;
  api::PodSandbox pod =
      rt::MakePodSandbox("default", "p", 1, contract::EncodeAssignment(a));
  auto r = (*conn)->CreateContainer(pod, rt::MakeContainer(pod, "main"));
  ASSERT_TRUE(r.ok()) << r.status() << plugin.output();
  ASSERT_EQ(r->adjust().linux().devices_size(), 1);
  EXPECT_EQ(r->adjust().linux().devices(0).path(), "/dev/gcu2");
  EXPECT_EQ(r->adjust().linux().devices(0).major(), 1);
  EXPECT_EQ(r->adjust().linux().devices(0).minor(), 3);
  std::map<std::string, std::string> env;
  for (const auto& kv : r->adjust().env()) env[kv.key()] = kv.value();
  EXPECT_EQ(env["GCUSHARE_MEMORY_LIMIT_MB"], "4096");
  EXPECT_EQ(env["GCUSHARE_MEMORY_TOTAL_MB"], "16384");
  EXPECT_EQ(env["GCUSHARE_MEMORY_UNIT"], "0.1");

  // A card whose node is missing: that container fails, clearly.
  a.cards = {9};
  api::PodSandbox bad =
      rt::MakePodSandbox("default", "q", 2, contract::EncodeAssignment(a));
  auto failed = (*conn)->CreateContainer(bad, rt::MakeContainer(bad, "main"));
  EXPECT_EQ(failed.status().code(), StatusCode::kNotFound);
  EXPECT_NE(failed.status().message().find("/dev/gcu9"), std::string::npos);

  ASSERT_TRUE(plugin.Signal(SIGTERM).ok());
  auto done = plugin.Wait(seconds(30));
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->exit_code, 0) << plugin.output();
  EXPECT_TRUE((*conn)->WaitClosed(seconds(10)));
  std::string log = ReadFileOrEmpty(dir + "/gcushare-nri-plugin.log");
  EXPECT_NE(log.find("registered with the runtime"), std::string::npos) << log;
  EXPECT_NE(log.find("seccomp"), std::string::npos) << log;
}

TEST(NriPluginBinaryTest, WithTheNriRuntimeBinary) {
  std::string dir = MakeTempDir();
  std::string socket = dir + "/nri.sock";
  ChildProcess plugin;  // Started first: it waits for the runtime.
  ASSERT_TRUE(plugin
                  .Start({Binary(), "--nri-socket=" + socket,
                          "--dev-root=" + DevRoot(4), "--log-dir=" + dir})
                  .ok());
  auto run =
      RunProcess({RunfilePath("tests/peers/nri_runtime/nri-runtime"),
                  "--socket=" + socket, "--pods=6", "--cards=4",
                  "--stale-devices", "--nri-version=0.12", "--log-dir=" + dir},
                 "", seconds(60));
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->exit_code, 0) << run->out << run->err << plugin.output();
  std::istringstream lines(run->out);
  std::string line;
  int containers = 0;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] != '{') continue;
    auto j = nlohmann::json::parse(line);
    int i = std::stoi(j["pod"].get<std::string>().substr(16));  // gcu-pod-N
    std::vector<std::string> gcus;
    for (const auto& d : j["spec"]["linux"]["devices"]) {
      gcus.push_back(d["path"]);
    }
    EXPECT_EQ(gcus,
              std::vector<std::string>{"/dev/gcu" + std::to_string(i % 4)})
        << line;
    ++containers;
  }
  EXPECT_EQ(containers, 6);
  EXPECT_NE(run->out.find("created 6 containers, 0 failed"), std::string::npos);
  ASSERT_TRUE(plugin.Signal(SIGTERM).ok());
  auto done = plugin.Wait(seconds(30));
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->exit_code, 0);
}

}  // namespace
}  // namespace gcushare::nri
