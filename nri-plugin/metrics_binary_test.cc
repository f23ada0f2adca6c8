// gcushare-nri-plugin as a real process (seccomp on) with --metrics-port:
// /metrics over HTTP counts what the stand-in runtime asked of it; without
// the flag nothing listens.
#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "contract/annotations.h"
#include "testing/files.h"
#include "testing/free_port.h"
#include "testing/subprocess.h"
#include "tests/peers/nri_runtime/fixtures.h"
#include "tests/peers/nri_runtime/runtime.h"

namespace gcushare::nri {
namespace {

namespace rt = ::gcushare::nri_runtime;
namespace api = rt::api;
using ::gcushare::testing::ChildProcess;
using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::RunfilePath;
using ::gcushare::testing::RunProcess;
using std::chrono::seconds;

std::string Binary() { return RunfilePath("nri-plugin/gcushare-nri-plugin"); }

TEST(NriMetricsBinaryTest, HelpExplainsTheMetricsFlags) {
  auto help = RunProcess({Binary(), "--help"});
  ASSERT_TRUE(help.ok());
  EXPECT_NE(help->out.find("--metrics-port"), std::string::npos);
  EXPECT_NE(help->out.find("--metrics-address"), std::string::npos);
}

TEST(NriMetricsBinaryTest, ServesMetricsOfWhatItDid) {
  std::string dir = MakeTempDir();
  ::mkdir((dir + "/dev").c_str(), 0755);
  ASSERT_EQ(::symlink("/dev/null", (dir + "/dev/gcu0").c_str()), 0);
  rt::RuntimeOptions options;
  options.socket_path = dir + "/nri.sock";
  auto runtime = rt::NriRuntime::Listen(options);
  ASSERT_TRUE(runtime.ok());
  const int port = gcushare::testing::FreeTcpPort();
  ChildProcess plugin;
  ASSERT_TRUE(plugin
                  .Start({Binary(), "--nri-socket=" + options.socket_path,
                          "--dev-root=" + dir, "--log-dir=" + dir,
                          "--metrics-port=" + std::to_string(port),
                          "--metrics-address=127.0.0.1"})
                  .ok());
  auto conn = (*runtime)->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status() << plugin.output();
  ASSERT_TRUE(plugin
                  .WaitForOutput("metrics on http://127.0.0.1:" +
                                     std::to_string(port) + "/metrics",
                                 seconds(30))
                  .ok())
      << plugin.output();

  contract::CardAssignment a;
  a.cards = {0};
  a.request_units = 4;
  a.card_memory_units = 16;
  api::PodSandbox pod =
      rt::MakePodSandbox("default", "p", 1, contract::EncodeAssignment(a));
  ASSERT_TRUE(
      (*conn)->CreateContainer(pod, rt::MakeContainer(pod, "main")).ok());
  a.cards = {5};  // No /dev/gcu5: refused.
  api::PodSandbox bad =
      rt::MakePodSandbox("default", "q", 2, contract::EncodeAssignment(a));
  ASSERT_FALSE(
      (*conn)->CreateContainer(bad, rt::MakeContainer(bad, "main")).ok());

  httplib::Client client("127.0.0.1", port);
  auto res = client.Get("/metrics");
  ASSERT_TRUE(res) << plugin.output();
  EXPECT_EQ(res->status, 200);
  for (const char* sample :
       {"gcushare_nri_adjustments_total 1\n",
        "gcushare_nri_containers_refused_total{reason=\"not_found\"} 1\n",
        "gcushare_nri_create_container_duration_seconds_count 2\n"}) {
    EXPECT_NE(res->body.find(sample), std::string::npos) << sample << res->body;
  }

  ASSERT_TRUE(plugin.Signal(SIGTERM).ok());
  auto done = plugin.Wait(seconds(30));
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->exit_code, 0) << plugin.output();
}

}  // namespace
}  // namespace gcushare::nri
