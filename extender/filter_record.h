// FilterRecord: which nodes the filter verb passed for which pod, so that
// bind places a pod only on a node this extender judged for it. The
// extender's HTTP port has no authentication (kube-scheduler speaks plain
// HTTP to it); without this record anyone who reaches the port could bind
// any pending GCU pod to any node.
//
// Bounded: a pod's entry lives `ttl` after its latest filter (kube-scheduler
// binds within one scheduling cycle, well under a minute); past `capacity`
// pods the oldest entries go first. A pod filtered again replaces its entry
// (a new cycle judges it afresh).
//
// With several extender replicas behind one Service, filter and bind of one
// pod must reach the same replica: the chart's Service uses sessionAffinity
// ClientIP (kube-scheduler calls from one address), and
// --bind-requires-filter=false turns the check off.
//
// Thread-safety: all methods are safe for concurrent use. The clock is
// borrowed and must outlive the record.
#ifndef GCUSHARE_EXTENDER_FILTER_RECORD_H_
#define GCUSHARE_EXTENDER_FILTER_RECORD_H_

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::extender {

class FilterRecord {
 public:
  FilterRecord(base::Clock* clock, size_t capacity, std::chrono::seconds ttl);

  // Remembers that filter passed `nodes` for the pod `uid` (replacing what
  // an earlier filter of that pod passed). An empty uid is not recorded.
  void Record(const std::string& uid, const std::vector<std::string>& nodes);

  // Whether the latest filter of `uid`, not older than the ttl, passed
  // `node`.
  bool Passed(std::string_view uid, std::string_view node) const;

  size_t size() const;

 private:
  struct Entry {
    std::chrono::steady_clock::time_point at;
    std::set<std::string, std::less<>> nodes;
  };
  // Drops expired entries and, past capacity, the oldest.
  void TrimLocked(std::chrono::steady_clock::time_point now) REQUIRES(mu_);

  base::Clock* const clock_;
  const size_t capacity_;
  const std::chrono::seconds ttl_;
  mutable base::Mutex mu_;
  std::map<std::string, Entry, std::less<>> by_uid_ GUARDED_BY(mu_);
  // (time, uid) in filter order, for trimming.
  std::multimap<std::chrono::steady_clock::time_point, std::string> by_time_
      GUARDED_BY(mu_);
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_FILTER_RECORD_H_
