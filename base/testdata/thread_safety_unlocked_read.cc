// Fixture for //base:thread_safety_test: reads GUARDED_BY state without its
// mutex; the clang-tsa flags must reject it.
#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace fixture {

class Account {
 public:
  int balance() const { return balance_; }  // Unlocked: rejected.

 private:
  mutable gcushare::base::Mutex mu_;
  int balance_ GUARDED_BY(mu_) = 0;
};

}  // namespace fixture
