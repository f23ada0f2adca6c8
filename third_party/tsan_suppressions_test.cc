// Regression test for tsan_suppressions.cc: under --config=tsan it fails
// (TSan's halt_on_error) if a suppression it relies on goes missing. In
// other builds it just logs.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <thread>

namespace gcushare {
namespace {

// The first spdlog call of the process on another thread constructs
// libspdlog.so's registry; the main thread logs after it without any
// synchronisation TSan can see (a relaxed flag gives none), as
// tests/kube_client's client_apiserver_test did with an informer thread.
TEST(TsanSuppressionsTest, SpdlogRegistryBuiltOnAnotherThread) {
  std::atomic<bool> logged{false};
  std::atomic<bool> done{false};
  std::thread first([&] {
    spdlog::info("first log line of the process, from a thread");
    logged.store(true, std::memory_order_relaxed);
    while (!done.load(std::memory_order_relaxed)) std::this_thread::yield();
  });
  while (!logged.load(std::memory_order_relaxed)) std::this_thread::yield();
  spdlog::info("then the main thread logs");
  EXPECT_TRUE(spdlog::default_logger_raw()->should_log(spdlog::level::info));
  done.store(true, std::memory_order_relaxed);
  first.join();
}

}  // namespace
}  // namespace gcushare
