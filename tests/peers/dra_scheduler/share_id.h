// Where the allocator gets the shareID of each allocation of a device that
// allows multiple allocations (KEP-5075: a fresh UID per result, as
// GenerateShareID does upstream).
//
// RandomShareIds draws RFC 4122 version-4 UUIDs; SequentialShareIds
// (testing) counts, so tests can name the IDs they expect.
// Thread-safety: RandomShareIds and SequentialShareIds are safe for
// concurrent use.
#ifndef GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_SHARE_ID_H_
#define GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_SHARE_ID_H_

#include <cstdint>
#include <random>
#include <string>

#include "base/mutex.h"

namespace gcushare::dra_scheduler {

class ShareIdSource {
 public:
  virtual ~ShareIdSource() = default;
  virtual std::string Next() = 0;
};

class RandomShareIds : public ShareIdSource {
 public:
  RandomShareIds();
  std::string Next() override;

 private:
  base::Mutex mu_;
  std::mt19937_64 engine_ GUARDED_BY(mu_);
};

// "00000000-0000-4000-8000-000000000001", "...002", ...
class SequentialShareIds : public ShareIdSource {
 public:
  std::string Next() override;

 private:
  base::Mutex mu_;
  uint64_t next_ GUARDED_BY(mu_) = 1;
};

}  // namespace gcushare::dra_scheduler

#endif  // GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_SHARE_ID_H_
