// Runs gcushare-config-manager as a real process on files in a temporary
// directory: flags, apply/restore commands, SIGTERM keeping the extender,
// restore on uninstall, all with seccomp on, and byte-compares the originals
// afterwards.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <string>
#include <vector>

#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare::config_manager {
namespace {

using testing::ChildProcess;
using testing::MakeTempDir;
using testing::ReadFileOrEmpty;
using testing::RunfilePath;
using testing::RunProcess;
using testing::WriteFileOrDie;

constexpr char kUrl[] = "http://10.96.0.50:32766/gcushare-scheduler";

std::string Binary() {
  return RunfilePath("config-manager/gcushare-config-manager");
}

std::string Testdata(const std::string& name) {
  return ReadFileOrEmpty(RunfilePath("config-manager/testdata/" + name));
}

struct Host {
  std::string dir = MakeTempDir();
  std::string manifest = dir + "/manifests/kube-scheduler.yaml";
  std::string state = dir + "/gcushare";
  std::string logs = dir + "/log";

  Host() {
    std::filesystem::create_directories(dir + "/manifests");
    std::filesystem::create_directories(dir + "/scheduler-custom");
  }

  std::vector<std::string> Args(const std::string& command) const {
    return {Binary(),
            command,
            "--manifest=" + manifest,
            "--state-dir=" + state,
            "--log-dir=" + logs,
            "--extender-url=" + std::string(kUrl)};
  }
};

TEST(ConfigManagerBinaryTest, HelpAndVersion) {
  auto help = RunProcess({Binary(), "--help"});
  ASSERT_TRUE(help.ok()) << help.status();
  EXPECT_EQ(help->exit_code, 0);
  for (const char* flag :
       {"--manifest", "--state-dir", "--kubernetes-version", "--extender-url",
        "--extender-service", "--extender-port", "--restore-on-exit",
        "--resync-period", "--kubeconfig", "--log-dir", "--log-level",
        "--seccomp", "restore"}) {
    EXPECT_NE(help->out.find(flag), std::string::npos) << flag;
  }
  auto version = RunProcess({Binary(), "--version"});
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(version->exit_code, 0);
  EXPECT_EQ(version->out.rfind("gcushare-config-manager ", 0), 0u)
      << version->out;
}

TEST(ConfigManagerBinaryTest, ApplyTwiceThenRestoreGivesTheOriginalBytes) {
  Host host;
  const std::string original = Testdata("kube-scheduler-1.24.yaml");
  ASSERT_FALSE(original.empty());
  WriteFileOrDie(host.manifest, original);

  auto applied = RunProcess(host.Args("apply"));
  ASSERT_TRUE(applied.ok()) << applied.status();
  ASSERT_EQ(applied->exit_code, 0) << applied->err;
  const std::string edited = ReadFileOrEmpty(host.manifest);
  EXPECT_NE(edited, original);
  EXPECT_NE(
      edited.find("--config=" + host.state + "/config/scheduler-config.yaml"),
      std::string::npos)
      << edited;
  const std::string config =
      ReadFileOrEmpty(host.state + "/config/scheduler-config.yaml");
  EXPECT_NE(config.find("apiVersion: kubescheduler.config.k8s.io/v1beta3"),
            std::string::npos)
      << config;
  EXPECT_NE(config.find(kUrl), std::string::npos);
  EXPECT_EQ(ReadFileOrEmpty(host.state + "/backup/kube-scheduler.yaml"),
            original);
  EXPECT_NE(ReadFileOrEmpty(host.logs + "/gcushare-config-manager.log")
                .find("seccomp: confined"),
            std::string::npos);

  auto again = RunProcess(host.Args("apply"));
  ASSERT_TRUE(again.ok());
  ASSERT_EQ(again->exit_code, 0) << again->err;
  EXPECT_EQ(ReadFileOrEmpty(host.manifest), edited);

  auto restored = RunProcess(host.Args("restore"));
  ASSERT_TRUE(restored.ok());
  ASSERT_EQ(restored->exit_code, 0) << restored->err;
  EXPECT_EQ(ReadFileOrEmpty(host.manifest), original);
  // Its own seccomp list covers every call it made.
  for (const auto* run : {&*applied, &*again, &*restored}) {
    EXPECT_EQ(run->err.find("seccomp: denied"), std::string::npos) << run->err;
  }
  EXPECT_EQ(ReadFileOrEmpty(host.state + "/config/scheduler-config.yaml"), "");
  EXPECT_EQ(ReadFileOrEmpty(host.state + "/backup/kube-scheduler.yaml"), "");
}

// SIGTERM (helm upgrade, node drain, eviction) leaves kube-scheduler
// calling the extender; only `restore` (the chart's pre-delete hook) puts
// the original back, and a `run` still up then stops re-applying.
TEST(ConfigManagerBinaryTest, SigtermKeepsTheExtenderRestoreIsForUninstall) {
  Host host;
  const std::string manifest = Testdata("kube-scheduler-1.27-config.yaml");
  const std::string user = Testdata("scheduler-config-custom.yaml");
  // The manifest's --config file lives under this hostPath directory.
  const std::string user_path = host.dir + "/scheduler-custom/config.yaml";
  std::string local = manifest;
  const std::string from = "path: /etc/kubernetes/scheduler-custom";
  size_t at = local.find(from);
  ASSERT_NE(at, std::string::npos);
  local.replace(at, from.size(), "path: " + host.dir + "/scheduler-custom");
  WriteFileOrDie(host.manifest, local);
  WriteFileOrDie(user_path, user);

  ChildProcess child;
  std::vector<std::string> args = host.Args("run");
  args.emplace_back("--resync-period=1");
  ASSERT_TRUE(child.Start(args).ok());
  ASSERT_TRUE(child
                  .WaitForOutput("kube-scheduler now calls the extender",
                                 std::chrono::seconds(30))
                  .ok())
      << child.output();
  EXPECT_NE(ReadFileOrEmpty(user_path).find(kUrl), std::string::npos);
  EXPECT_NE(ReadFileOrEmpty(user_path).find("http://127.0.0.1:8888/other"),
            std::string::npos);
  const std::string applied = ReadFileOrEmpty(host.manifest);
  EXPECT_NE(applied, local);

  ASSERT_TRUE(child.Signal(SIGTERM).ok());
  auto r = child.Wait();
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->exit_code, 0) << r->out;
  EXPECT_EQ(r->out.find("seccomp: denied"), std::string::npos) << r->out;
  EXPECT_EQ(r->out.find("restored kube-scheduler's original"),
            std::string::npos)
      << r->out;
  EXPECT_EQ(ReadFileOrEmpty(host.manifest), applied);

  // Uninstall: the hook runs `restore` while the DaemonSet's pod still
  // runs; that pod must not put the extender back before it is deleted.
  ChildProcess again;
  ASSERT_TRUE(again.Start(args).ok());
  ASSERT_TRUE(again
                  .WaitForOutput("keeping kube-scheduler configured",
                                 std::chrono::seconds(30))
                  .ok())
      << again.output();
  auto restored = RunProcess(host.Args("restore"));
  ASSERT_TRUE(restored.ok());
  ASSERT_EQ(restored->exit_code, 0) << restored->err;
  ASSERT_TRUE(
      again.WaitForOutput("not re-applying", std::chrono::seconds(30)).ok())
      << again.output();
  EXPECT_EQ(ReadFileOrEmpty(host.manifest), local);
  EXPECT_EQ(ReadFileOrEmpty(user_path), user);
  ASSERT_TRUE(again.Signal(SIGTERM).ok());
  auto stopped = again.Wait();
  ASSERT_TRUE(stopped.ok());
  EXPECT_EQ(stopped->exit_code, 0);
  EXPECT_EQ(ReadFileOrEmpty(host.manifest), local);
}

TEST(ConfigManagerBinaryTest, BadInputFailsClearlyAndChangesNothing) {
  Host host;
  const std::string binding =
      Testdata("scheduler-config-binding-extender.yaml");
  std::string local = Testdata("kube-scheduler-1.27-config.yaml");
  const std::string from = "path: /etc/kubernetes/scheduler-custom";
  local.replace(local.find(from), from.size(),
                "path: " + host.dir + "/scheduler-custom");
  WriteFileOrDie(host.manifest, local);
  WriteFileOrDie(host.dir + "/scheduler-custom/config.yaml", binding);

  auto r = RunProcess(host.Args("apply"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 1);
  EXPECT_NE(r->err.find("already binds"), std::string::npos) << r->err;
  EXPECT_EQ(ReadFileOrEmpty(host.manifest), local);
  EXPECT_EQ(ReadFileOrEmpty(host.dir + "/scheduler-custom/config.yaml"),
            binding);
  EXPECT_EQ(ReadFileOrEmpty(host.state + "/backup/kube-scheduler.yaml"), "");

  // Neither or both of the URL flags.
  auto no_url = RunProcess({Binary(), "apply", "--manifest=" + host.manifest,
                            "--log-dir=" + host.logs});
  ASSERT_TRUE(no_url.ok());
  EXPECT_EQ(no_url->exit_code, 1);
  EXPECT_NE(no_url->err.find("--extender-url"), std::string::npos);
  auto bad_version = RunProcess(
      {Binary(), "apply", "--kubernetes-version=latest",
       "--extender-url=" + std::string(kUrl), "--log-dir=" + host.logs});
  ASSERT_TRUE(bad_version.ok());
  EXPECT_EQ(bad_version->exit_code, 1);
  EXPECT_NE(bad_version->err.find("not a Kubernetes version"),
            std::string::npos);
  auto bad_command = RunProcess({Binary(), "uninstall"});
  ASSERT_TRUE(bad_command.ok());
  EXPECT_EQ(bad_command->exit_code, 2);
}

}  // namespace
}  // namespace gcushare::config_manager
