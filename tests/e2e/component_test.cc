#include "tests/e2e/component.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

namespace gcushare::e2e {
namespace {

std::string TempFile() {
  char pattern[] = "/tmp/gcs-component-XXXXXX";
  int fd = ::mkstemp(pattern);
  ::close(fd);
  return pattern;
}

const std::vector<std::string> kPolite = {
    "/bin/sh", "-c",
    "trap 'echo bye; exit 0' TERM; echo hello; while true; do sleep 0.05; "
    "done"};

TEST(ComponentTest, StartWaitStopAndRestartAppend) {
  Component c("polite", TempFile());
  ASSERT_TRUE(c.Start(kPolite).ok());
  EXPECT_TRUE(c.Running());
  EXPECT_EQ(c.Start(kPolite).code(), StatusCode::kFailedPrecondition);
  ASSERT_TRUE(c.WaitForOutput("hello", std::chrono::seconds(30)).ok());
  auto code = c.Stop();
  ASSERT_TRUE(code.ok()) << code.status();
  EXPECT_EQ(*code, 0);
  EXPECT_NE(c.Output().find("bye"), std::string::npos) << c.Output();
  EXPECT_FALSE(c.Running());

  // A restart's Output() starts afresh; the file keeps both runs.
  ASSERT_TRUE(c.Restart().ok());
  ASSERT_TRUE(c.WaitForOutput("hello", std::chrono::seconds(30)).ok());
  EXPECT_EQ(c.Output().find("bye"), std::string::npos) << c.Output();
  c.Kill();
  EXPECT_FALSE(c.Running());
}

TEST(ComponentTest, WaitingOnAProcessThatExitedSaysSo) {
  Component c("quitter", TempFile());
  ASSERT_TRUE(c.Start({"/bin/sh", "-c", "echo giving up; exit 3"}).ok());
  Status s = c.WaitForOutput("never printed", std::chrono::seconds(30));
  EXPECT_EQ(s.code(), StatusCode::kUnavailable) << s;
  EXPECT_NE(s.ToString().find("giving up"), std::string::npos) << s;
  EXPECT_NE(c.Output().find("exited with code 3"), std::string::npos);
}

TEST(ComponentTest, WaitingTimesOut) {
  Component c("quiet", TempFile());
  ASSERT_TRUE(c.Start(kPolite).ok());
  Status s = c.WaitForOutput("nothing", std::chrono::milliseconds(100));
  EXPECT_EQ(s.code(), StatusCode::kDeadlineExceeded) << s;
}

TEST(ComponentTest, BadCommandFailsTheStart) {
  Component c("missing", TempFile());
  EXPECT_EQ(c.Start({}).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(c.Start({"/nonexistent/binary"}).ok());
  Status s = c.WaitForOutput("ready", std::chrono::seconds(30));
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_NE(s.ToString().find("exec failed"), std::string::npos) << s;
}

}  // namespace
}  // namespace gcushare::e2e
