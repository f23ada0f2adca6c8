// Runs the example daemon as a real process: flags, version, logs, seccomp
// and SIGTERM, as an operator would see them.
#include <gtest/gtest.h>
#include <signal.h>

#include <string>

#include "daemon/version.h"
#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare {
namespace {

using ::gcushare::testing::ChildProcess;
using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::ReadFileOrEmpty;
using ::gcushare::testing::RunfilePath;
using ::gcushare::testing::RunProcess;
using ::gcushare::testing::WriteFileOrDie;

std::string Binary() { return RunfilePath("daemon/gcushare-example-daemon"); }

TEST(DaemonIntegrationTest, HelpExplainsEveryFlag) {
  auto r = RunProcess({Binary(), "--help"});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->exit_code, 0);
  for (const char* flag : {"--help", "--version", "--log-dir", "--log-level",
                           "--seccomp", "--probe-socket"}) {
    EXPECT_NE(r->out.find(flag), std::string::npos) << flag << "\n" << r->out;
  }
  EXPECT_NE(r->out.find("/var/log/topscloud/gcushare"), std::string::npos);
}

TEST(DaemonIntegrationTest, VersionIsTheSharedVersion) {
  auto r = RunProcess({Binary(), "--version"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_EQ(r->out, "gcushare-example-daemon " + std::string(Version()) + "\n");
}

TEST(DaemonIntegrationTest, BadFlagExitsTwoWithHint) {
  auto r = RunProcess({Binary(), "--no-such-flag=1"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 2);
  EXPECT_NE(r->err.find("--help"), std::string::npos) << r->err;
  auto level = RunProcess({Binary(), "--log-level=loud"});
  ASSERT_TRUE(level.ok());
  EXPECT_EQ(level->exit_code, 2);
}

TEST(DaemonIntegrationTest, EmptyFlagValueIsEmptyNotTheNextFlag) {
  // "--log-level=loud" must still be read as a flag (and refused), not
  // swallowed as the value of "--log-dir=".
  auto bad = RunProcess({Binary(), "--log-dir=", "--log-level=loud"});
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ(bad->exit_code, 2);
  EXPECT_NE(bad->err.find("--log-level"), std::string::npos) << bad->err;

  // "--log-dir=" means stderr only: the daemon runs and logs there.
  ChildProcess child;
  ASSERT_TRUE(child
                  .Start({Binary(), "--log-dir=", "--log-level=debug",
                          "--probe-socket"})
                  .ok());
  ASSERT_TRUE(child.WaitForOutput("ready", std::chrono::seconds(30)).ok())
      << child.output();
  ASSERT_TRUE(child.Signal(SIGTERM).ok());
  auto r = child.Wait();
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->exit_code, 0) << r->out << r->err;
  EXPECT_NE((r->out + r->err).find("seccomp: confined"), std::string::npos)
      << r->out << r->err;
  EXPECT_EQ((r->out + r->err).find("cannot"), std::string::npos)
      << r->out << r->err;
}

TEST(DaemonIntegrationTest, LogsConfinesAndStopsCleanlyOnSigterm) {
  std::string dir = MakeTempDir();
  ChildProcess child;
  ASSERT_TRUE(child
                  .Start({Binary(), "--log-dir=" + dir, "--log-level=debug",
                          "--probe-socket"})
                  .ok());
  ASSERT_TRUE(child.WaitForOutput("ready", std::chrono::seconds(30)).ok())
      << child.output();
  ASSERT_TRUE(child.Signal(SIGTERM).ok());
  auto r = child.Wait();
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->exit_code, 0) << r->out;
  std::string log = ReadFileOrEmpty(dir + "/gcushare-example-daemon.log");
  EXPECT_NE(log.find("seccomp: confined"), std::string::npos) << log;
  EXPECT_NE(log.find("probe: socket refused: Operation not permitted"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("stopped cleanly after signal 15"), std::string::npos)
      << log;
  // The same lines went to stderr.
  EXPECT_NE(r->out.find("shutting down"), std::string::npos);
}

TEST(DaemonIntegrationTest, SeccompOffForDebugging) {
  std::string dir = MakeTempDir();
  ChildProcess child;
  ASSERT_TRUE(child
                  .Start({Binary(), "--log-dir=" + dir, "--seccomp=false",
                          "--probe-socket"})
                  .ok());
  ASSERT_TRUE(child.WaitForOutput("ready", std::chrono::seconds(30)).ok());
  EXPECT_NE(child.output().find("probe: socket allowed"), std::string::npos);
  EXPECT_NE(child.output().find("seccomp confinement is off"),
            std::string::npos);
  ASSERT_TRUE(child.Signal(SIGINT).ok());
  auto r = child.Wait();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
}

TEST(DaemonIntegrationTest, UnwritableLogDirSaysSoOnceAndRuns) {
  std::string base = MakeTempDir();
  std::string blocker = base + "/file";
  WriteFileOrDie(blocker, "x");
  ChildProcess child;
  ASSERT_TRUE(child.Start({Binary(), "--log-dir=" + blocker + "/logs"}).ok());
  ASSERT_TRUE(child.WaitForOutput("ready", std::chrono::seconds(30)).ok());
  ASSERT_TRUE(child.Signal(SIGTERM).ok());
  auto r = child.Wait();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
  const std::string needle = "not logging to a file";
  size_t first = r->out.find(needle);
  ASSERT_NE(first, std::string::npos) << r->out;
  EXPECT_EQ(r->out.find(needle, first + 1), std::string::npos);
}

}  // namespace
}  // namespace gcushare
