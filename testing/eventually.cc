#include "testing/eventually.h"

#include <thread>

namespace gcushare::testing {

bool Eventually(const std::function<bool()>& done,
                std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return done();
}

}  // namespace gcushare::testing
