// Test support: waiting for an observable condition that no callback
// announces, bounded so a broken component fails the test instead of
// hanging it. The bound is a safety net, never what a test asserts.
//
// Not for production code. Thread-compatible: `done` runs on the caller's
// thread.
#ifndef GCUSHARE_TESTING_EVENTUALLY_H_
#define GCUSHARE_TESTING_EVENTUALLY_H_

#include <chrono>
#include <functional>

namespace gcushare::testing {

// Polls `done` every few milliseconds until it holds (true) or `limit`
// passed (false; `done` is asked once more at the end).
bool Eventually(const std::function<bool()>& done,
                std::chrono::milliseconds limit = std::chrono::seconds(30));

}  // namespace gcushare::testing

#endif  // GCUSHARE_TESTING_EVENTUALLY_H_
