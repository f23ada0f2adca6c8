// Fixture for //base:thread_safety_test: Abseil's older annotation header
// (which gRPC's headers include) first, then ours: compiles with no
// warning (no macro redefined) and the annotations still check.
#include <absl/base/internal/thread_annotations.h>

#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace fixture {

class Account {
 public:
  void Deposit(int amount) {
    gcushare::base::MutexLock lock(mu_);
    balance_ += amount;
  }

 private:
  gcushare::base::Mutex mu_;
  int balance_ GUARDED_BY(mu_) = 0;
};

}  // namespace fixture
