// Runs kubectl-inspect-gcushare as a process against a stand-in extender
// serving /inspect over HTTP, as `kubectl inspect-gcushare` would run it.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "kubectl-plugin/testing/fake_extender.h"
#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare::kubectl_plugin {
namespace {

using testing::RunfilePath;
using testing::RunProcess;

std::string Binary() {
  return RunfilePath("kubectl-plugin/kubectl-inspect-gcushare");
}

class PluginBinaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("GCUSHARE_EXTENDER_URL");
    ASSERT_TRUE(extender_.Start().ok());
    extender_.SetNodes(testing::ReadFileOrEmpty(
        RunfilePath("kubectl-plugin/testdata/inspect.json")));
  }
  FakeExtender extender_;
};

TEST_F(PluginBinaryTest, PrintsTheTable) {
  auto r = RunProcess({Binary(), "--extender-url=" + extender_.base_url()});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->exit_code, 0) << r->err;
  EXPECT_EQ(r->out,
            "NODE    CARD  HEALTH     USED/TOTAL   FREE      PODS\n"
            "node-a  0     UNHEALTHY  0/16 GiB     16 GiB\n"
            "node-b  0     ok         4.5/16 GiB   11.5 GiB  "
            "default/infer-1: 4 GiB\n"
            "                                                "
            "default/infer-2: 0.5 GiB (assumed)\n"
            "        1     ok         16/16 GiB    0 GiB     ml/train: 16 GiB\n"
            "        all              20.5/32 GiB  11.5 GiB\n"
            "TOTAL                    20.5/48 GiB  27.5 GiB\n");
}

TEST_F(PluginBinaryTest, OneNodeFromTheEnvironmentUrl) {
  setenv("GCUSHARE_EXTENDER_URL", extender_.base_url().c_str(), 1);
  auto r = RunProcess({Binary(), "node-a", "--no-pods"});
  unsetenv("GCUSHARE_EXTENDER_URL");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0) << r->err;
  EXPECT_EQ(r->out,
            "NODE    CARD  HEALTH     USED/TOTAL  FREE    PODS\n"
            "node-a  0     UNHEALTHY  0/16 GiB    16 GiB\n");
  EXPECT_EQ(extender_.requests().back(), "/gcushare-scheduler/inspect/node-a");
}

TEST_F(PluginBinaryTest, JsonOutput) {
  auto r = RunProcess(
      {Binary(), "-o", "json", "--extender-url=" + extender_.base_url()});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0) << r->err;
  EXPECT_NE(r->out.find("\"name\": \"node-b\""), std::string::npos) << r->out;
  EXPECT_NE(r->out.find("\"assumed\": true"), std::string::npos);
}

TEST_F(PluginBinaryTest, FailuresExitOneWithAMessage) {
  auto unknown = RunProcess(
      {Binary(), "node-z", "--extender-url=" + extender_.base_url()});
  ASSERT_TRUE(unknown.ok());
  EXPECT_EQ(unknown->exit_code, 1);
  EXPECT_NE(unknown->err.find("knows no GCUShare node \"node-z\""),
            std::string::npos)
      << unknown->err;
  EXPECT_TRUE(unknown->out.empty());

  extender_.SetNodes("<html>not the extender</html>");
  auto garbage =
      RunProcess({Binary(), "--extender-url=" + extender_.base_url()});
  ASSERT_TRUE(garbage.ok());
  EXPECT_EQ(garbage->exit_code, 1);
  EXPECT_NE(garbage->err.find("malformed JSON"), std::string::npos);

  auto nothing = RunProcess({Binary(), "--extender-url=http://127.0.0.1:1"});
  ASSERT_TRUE(nothing.ok());
  EXPECT_EQ(nothing->exit_code, 1);
  EXPECT_NE(nothing->err.find("cannot reach the GCUShare extender"),
            std::string::npos);

  auto bad_flag = RunProcess({Binary(), "-o", "yaml"});
  ASSERT_TRUE(bad_flag.ok());
  EXPECT_EQ(bad_flag->exit_code, 2);
}

// An answer nested 100k deep (a broken or hostile endpoint behind
// --extender-url) used to overflow the stack of the JSON parser: now it is
// an error naming the limit, exit code 1.
TEST_F(PluginBinaryTest, DeeplyNestedAnswerIsAnErrorNotACrash) {
  extender_.SetNodes(std::string(100000, '[') + std::string(100000, ']'));
  for (const char* output : {"table", "json"}) {
    auto r = RunProcess(
        {Binary(), "-o", output, "--extender-url=" + extender_.base_url()});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->exit_code, 1) << output << " " << r->err.substr(0, 200);
    EXPECT_NE(r->err.find("inspect JSON: nested deeper than 100 levels"),
              std::string::npos)
        << r->err.substr(0, 200);
    EXPECT_TRUE(r->out.empty());
  }
}

TEST_F(PluginBinaryTest, HelpAndVersion) {
  auto help = RunProcess({Binary(), "--help"});
  ASSERT_TRUE(help.ok());
  EXPECT_EQ(help->exit_code, 0);
  for (const char* flag : {"--extender-url", "GCUSHARE_EXTENDER_URL",
                           "--output", "--pods", "--timeout", "port-forward"}) {
    EXPECT_NE(help->out.find(flag), std::string::npos) << flag;
  }
  auto version = RunProcess({Binary(), "--version"});
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(version->out.rfind("kubectl-inspect-gcushare ", 0), 0u);
}

}  // namespace
}  // namespace gcushare::kubectl_plugin
