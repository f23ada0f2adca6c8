#include "base/guarded_thread.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace gcushare::base {
namespace {

TEST(GuardedThreadTest, EscapingExceptionReachesTheHandlerWithNames) {
  std::string died_name;
  std::string died_what;
  std::thread t = StartGuardedThread(
      "informer pods",
      [] {
        // What a stray nlohmann call on outside JSON would throw.
        nlohmann::json pod = {{"metadata", "not an object"}};
        (void)pod["metadata"].value("annotations", nlohmann::json::object());
      },
      [&](std::string_view name, std::string_view what) {
        died_name = name;
        died_what = what;
      });
  t.join();
  EXPECT_EQ(died_name, "informer pods");
  EXPECT_NE(died_what.find("type_error"), std::string::npos) << died_what;
}

TEST(GuardedThreadTest, NonStandardExceptionsAreCaughtToo) {
  std::string died_what;
  std::thread t = StartGuardedThread(
      "odd", [] { throw 42; },
      [&](std::string_view, std::string_view what) { died_what = what; });
  t.join();
  EXPECT_NE(died_what.find("not a std::exception"), std::string::npos);
}

TEST(GuardedThreadTest, NormalEndCallsNoHandler) {
  bool died = false;
  bool ran = false;
  std::thread t = StartGuardedThread(
      "fine", [&] { ran = true; },
      [&](std::string_view, std::string_view) { died = true; });
  t.join();
  EXPECT_TRUE(ran);
  EXPECT_FALSE(died);
}

// The default handler ends the process with status 70, so that kubelet
// restarts the daemon (instead of std::terminate's SIGABRT with no word).
TEST(GuardedThreadTest, DefaultHandlerExitsWith70) {
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::thread t =
        StartGuardedThread("doomed", [] { throw std::runtime_error("boom"); });
    t.join();
    _exit(0);  // Not reached.
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 70);
}

}  // namespace
}  // namespace gcushare::base
