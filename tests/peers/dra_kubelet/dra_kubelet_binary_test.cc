// The dra-kubelet program against a fake plugin: it reports the
// registration and a refusal, and stops on SIGTERM.
#include <gtest/gtest.h>
#include <signal.h>

#include "testing/files.h"
#include "testing/subprocess.h"
#include "tests/peers/dra_kubelet/fake_dra_plugin.h"

namespace gcushare::peers::dra_kubelet {
namespace {

using ::gcushare::testing::ChildProcess;
using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::RunfilePath;

TEST(DraKubeletBinaryTest, ReportsRegistrationsAndStopsOnSigterm) {
  std::string registry = MakeTempDir();
  FakePluginConfig good;
  good.registry_dir = registry;
  good.plugin_dir = MakeTempDir();
  FakeDraPlugin plugin(good);
  plugin.Start();  // Found by the start-up scan.

  ChildProcess child;
  ASSERT_TRUE(child
                  .Start({RunfilePath("tests/peers/dra_kubelet/dra-kubelet"),
                          "--registry-dir=" + registry, "--node-name=n1",
                          "--poll-interval=0.05"})
                  .ok());
  Status seen =
      child.WaitForOutput("registered gcu.enflame.com endpoint " +
                              plugin.endpoint() + " service v1.DRAPlugin",
                          std::chrono::seconds(30));
  ASSERT_TRUE(seen.ok()) << seen;
  seen = child.WaitForOutput("connected gcu.enflame.com " + plugin.endpoint(),
                             std::chrono::seconds(30));
  ASSERT_TRUE(seen.ok()) << seen;

  FakePluginConfig bad;
  bad.registry_dir = registry;
  bad.plugin_dir = MakeTempDir();
  bad.registration_name = "bad-reg.sock";
  bad.versions = {"v0.DRAPlugin"};
  FakeDraPlugin refused(bad);
  refused.Start();  // Found by inotify.
  seen = child.WaitForOutput("refused " + refused.registration_path(),
                             std::chrono::seconds(30));
  ASSERT_TRUE(seen.ok()) << seen;

  ASSERT_TRUE(child.Signal(SIGTERM).ok());
  auto result = child.Wait();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->exit_code, 0) << child.output();
}

TEST(DraKubeletBinaryTest, MissingRegistryDirectoryFails) {
  auto result = ::gcushare::testing::RunProcess(
      {RunfilePath("tests/peers/dra_kubelet/dra-kubelet"),
       "--registry-dir=" + MakeTempDir() + "/missing", "--node-name=n1"});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_NE(result->exit_code, 0);
}

}  // namespace
}  // namespace gcushare::peers::dra_kubelet
