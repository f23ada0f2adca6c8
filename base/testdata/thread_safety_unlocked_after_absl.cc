// Fixture for //base:thread_safety_test: with Abseil's GUARDED_BY in
// force, an unlocked write must still be rejected.
#include <absl/base/internal/thread_annotations.h>

#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace fixture {

class Account {
 public:
  void Deposit(int amount) { balance_ += amount; }  // Unlocked: rejected.

 private:
  gcushare::base::Mutex mu_;
  int balance_ GUARDED_BY(mu_) = 0;
};

}  // namespace fixture
