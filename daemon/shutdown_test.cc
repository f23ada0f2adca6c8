#include "daemon/shutdown.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>

namespace gcushare {
namespace {

TEST(ShutdownSignalTest, SigtermRequestsShutdownAndRunsCallbacks) {
  ShutdownSignal shutdown;
  std::atomic<int> calls{0};
  shutdown.OnShutdown([&] { ++calls; });
  EXPECT_FALSE(shutdown.Requested());
  ASSERT_EQ(kill(getpid(), SIGTERM), 0);
  shutdown.Wait();
  EXPECT_TRUE(shutdown.Requested());
  EXPECT_EQ(shutdown.SignalNumber(), SIGTERM);
  EXPECT_EQ(calls.load(), 1);
}

TEST(ShutdownSignalTest, SigintToo) {
  ShutdownSignal shutdown;
  ASSERT_EQ(kill(getpid(), SIGINT), 0);
  shutdown.Wait();
  EXPECT_EQ(shutdown.SignalNumber(), SIGINT);
}

TEST(ShutdownSignalTest, TriggerWithoutSignal) {
  ShutdownSignal shutdown;
  shutdown.Trigger();
  EXPECT_TRUE(shutdown.WaitFor(std::chrono::milliseconds(0)));
  EXPECT_EQ(shutdown.SignalNumber(), 0);
}

TEST(ShutdownSignalTest, CallbackAfterRequestRunsAtOnce) {
  ShutdownSignal shutdown;
  shutdown.Trigger();
  bool ran = false;
  shutdown.OnShutdown([&] { ran = true; });
  EXPECT_TRUE(ran);
}

TEST(ShutdownSignalTest, NotRequestedTimesOut) {
  ShutdownSignal shutdown;
  EXPECT_FALSE(shutdown.WaitFor(std::chrono::milliseconds(1)));
}

}  // namespace
}  // namespace gcushare
