// ListCost: what a list costs kube-apiserver, modelled so that a client's
// start-up against the stand-in takes the time it takes against a real
// cluster (docs/startup.md has the measurements and the fit).
//
// kube-apiserver serves a list from one of two places (1.26's cacher,
// shouldDelegateList; unchanged in this respect through 1.30):
//   - the watch cache: resourceVersion "0", or a non-zero resourceVersion
//     (NotOlderThan) without limit or continue; the whole list, limit
//     ignored for "0", encoded whole before the first byte is written;
//   - etcd, as a quorum read: resourceVersion "" (a consistent read),
//     any continue token, a limit with a resourceVersion other than "0",
//     resourceVersionMatch=Exact; one range read per page.
// The cost of an answer is a fixed part per request plus a part per byte
// of JSON written, with one set of figures per source (ListCostOptions),
// spent before the answer is written, as the real server encodes a list
// whole first. At most `concurrency` answers are costed at once (the
// server's cores); further lists wait for a slot.
//
// Tests must not depend on timing: all costs are zero by default, and the
// sleep is injected. KubeApiserver126() holds the figures measured against
// kube-apiserver 1.26.4 with etcd 3.4 on 2 cores.
//
// Thread-safety: Charge() and the counters are thread-safe.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_LIST_COST_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_LIST_COST_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "base/mutex.h"

namespace gcushare::apiserver {

enum class ListSource { kWatchCache, kEtcd };

// "watch cache" / "etcd".
const char* ListSourceName(ListSource source);

// Where kube-apiserver 1.26 serves a list from (see above). Pure.
ListSource ListSourceOf(const std::string& resource_version,
                        const std::string& resource_version_match,
                        int64_t limit, bool has_continue);

struct ListCostOptions {
  // Quorum read from etcd: per request (page) and per MB (10^6 bytes).
  double etcd_ms_per_request = 0;
  double etcd_ms_per_mb = 0;
  // From the watch cache.
  double cache_ms_per_request = 0;
  double cache_ms_per_mb = 0;
  // Answers costed at once (the API server's cores); >= 1.
  int concurrency = 2;

  bool free() const {
    return etcd_ms_per_request == 0 && etcd_ms_per_mb == 0 &&
           cache_ms_per_request == 0 && cache_ms_per_mb == 0;
  }
};

// Fitted to the medians measured against kube-apiserver 1.26.4 (the table
// and the fit are in docs/startup.md): etcd 13 ms a page + 16 ms/MB, watch
// cache 12 ms/MB, two cores.
ListCostOptions KubeApiserver126();

class ListCost {
 public:
  using Sleep = std::function<void(std::chrono::nanoseconds)>;
  // `sleep` null: std::this_thread::sleep_for.
  explicit ListCost(ListCostOptions options, Sleep sleep = nullptr);

  // The modelled time of one answer of `bytes` from `source`. Pure.
  std::chrono::nanoseconds CostOf(ListSource source, size_t bytes) const;

  // Counts the answer, then (when it costs anything) waits for a slot and
  // sleeps its cost less `spent`, the time the stand-in already took to
  // build the answer (the measured cost included the real server's own
  // work). Called by the list handler before it writes.
  void Charge(ListSource source, size_t bytes,
              std::chrono::nanoseconds spent = std::chrono::nanoseconds(0))
      EXCLUDES(mu_);

  struct Counts {
    uint64_t requests = 0;
    uint64_t bytes = 0;
  };
  Counts counts(ListSource source) const EXCLUDES(mu_);
  // When the latest answer's cost ended, i.e. when the server starts
  // writing it (steady clock); a default time_point before any answer.
  std::chrono::steady_clock::time_point last_answer() const EXCLUDES(mu_);

  const ListCostOptions& options() const { return options_; }

 private:
  const ListCostOptions options_;
  const Sleep sleep_;
  mutable base::Mutex mu_;
  base::CondVar slot_cv_;
  int busy_ GUARDED_BY(mu_) = 0;
  Counts counts_[2] GUARDED_BY(mu_);  // Indexed by ListSource.
  std::chrono::steady_clock::time_point last_answer_ GUARDED_BY(mu_);
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_LIST_COST_H_
