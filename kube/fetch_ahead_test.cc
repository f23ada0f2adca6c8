#include "kube/fetch_ahead.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

namespace gcushare::kube {
namespace {

// A fetch that waits for its cancellation (longer than any test runs).
StatusOr<int> WaitForCancel(base::Cancellation* cancel) {
  if (cancel->WaitFor(std::chrono::hours(1))) {
    return Status(StatusCode::kCancelled, "fetch cancelled");
  }
  return 1;
}

TEST(FetchAheadTest, TakeReturnsTheFetchedValue) {
  FetchAhead<std::string> ahead(
      "token", nullptr, [](base::Cancellation*) -> StatusOr<std::string> {
        return std::string("page 2");
      });
  EXPECT_EQ(ahead.key(), "token");
  StatusOr<std::string> page = ahead.Take();
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_EQ(*page, "page 2");
  EXPECT_FALSE(ahead.Take().ok());  // Once only.
}

TEST(FetchAheadTest, TakeReturnsTheFetchError) {
  FetchAhead<int> ahead("t", nullptr, [](base::Cancellation*) -> StatusOr<int> {
    return DataLossError("bad page");
  });
  StatusOr<int> page = ahead.Take();
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.status().message(), "bad page");
}

TEST(FetchAheadTest, OuterCancellationReachesTheFetch) {
  base::Cancellation outer;
  FetchAhead<int> ahead("t", &outer, WaitForCancel);
  outer.Cancel();
  StatusOr<int> page = ahead.Take();
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.status().code(), StatusCode::kCancelled);
}

TEST(FetchAheadTest, AlreadyCancelledOuterCancelsTheFetch) {
  base::Cancellation outer;
  outer.Cancel();
  FetchAhead<int> ahead("t", &outer, WaitForCancel);
  EXPECT_EQ(ahead.Take().status().code(), StatusCode::kCancelled);
}

TEST(FetchAheadTest, DestroyingCancelsAnUntakenFetchAndJoins) {
  base::Cancellation outer;
  std::atomic<bool> ended{false};
  {
    FetchAhead<int> ahead("t", &outer, [&ended](base::Cancellation* cancel) {
      StatusOr<int> result = WaitForCancel(cancel);
      ended = true;
      return result;
    });
  }
  // The destructor returned: the fetch was cancelled and has ended.
  EXPECT_TRUE(ended.load());
  EXPECT_FALSE(outer.IsCancelled());
  outer.Cancel();  // The waker is gone: nothing touches the dead object.
}

}  // namespace
}  // namespace gcushare::kube
