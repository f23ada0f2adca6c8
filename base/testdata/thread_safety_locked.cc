// Fixture for //base:thread_safety_test: guarded state used correctly;
// the clang-tsa flags must accept it.
#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace fixture {

class Account {
 public:
  void Deposit(int amount) {
    gcushare::base::MutexLock lock(mu_);
    AddLocked(amount);
    cv_.NotifyAll();
  }
  int WaitForBalance() {
    gcushare::base::MutexLock lock(mu_);
    cv_.Wait(lock, [this]() REQUIRES(mu_) { return balance_ > 0; });
    return balance_;
  }

 private:
  void AddLocked(int amount) REQUIRES(mu_) { balance_ += amount; }

  gcushare::base::Mutex mu_;
  gcushare::base::CondVar cv_;
  int balance_ GUARDED_BY(mu_) = 0;
};

}  // namespace fixture
