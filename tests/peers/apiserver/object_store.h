// ObjectStore: the stand-in's etcd plus watch cache.
//
// Objects live per resource under their store key ("ns/name" or "name"). One
// global counter, like etcd's revision, is bumped by every write and stamped
// into the written object's metadata.resourceVersion. The last `history`
// events (of all resources) are kept, which makes three things possible:
// watches that resume from a resourceVersion inside that window, lists of the
// state at an older resourceVersion (consistent paging, resourceVersionMatch
// =Exact), and "too old" answers outside it.
//
// Writes are compare-and-swap: Replace and Delete take the resourceVersion the
// caller read, and fail with ABORTED when the object changed meanwhile; the
// HTTP layer re-reads and retries (like the real GuaranteedUpdate) or reports
// a Conflict. A Replace that changes nothing is not written and bumps nothing,
// as the real server skips no-op updates.
//
// Watches: Watch() registers a WatchStream and, atomically under the store
// lock, queues its initial events (the current state as ADDED, or the history
// replayed after a resourceVersion), so a watch never misses or repeats an
// event. Every later write is filtered through each watch's predicate with
// the real watch cache's rules: an object that starts matching arrives as
// ADDED, one that stops matching as DELETED (its previous state, stamped with
// the event's resourceVersion).
//
// Errors: NOT_FOUND, ALREADY_EXISTS, ABORTED (resourceVersion changed),
// OUT_OF_RANGE (resourceVersion older than the history window; the message is
// the real "too old resource version: <rv> (<oldest usable>)"), and the
// journal's write errors (nothing is changed then).
//
// Ownership: owns its objects, history and watch registrations; shares the
// streams with the watch handlers; does not own the journal. Thread-safety:
// all methods are thread-safe (one mutex).
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_OBJECT_STORE_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_OBJECT_STORE_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/mutex.h"
#include "status/status.h"
#include "tests/peers/apiserver/journal.h"
#include "tests/peers/apiserver/json.h"
#include "tests/peers/apiserver/watch_stream.h"

namespace gcushare::apiserver {

// An object as stored: immutable once published, shared by the map, the
// history and readers.
struct StoredObject {
  Json object;       // Carries metadata.resourceVersion == rv.
  std::string json;  // DumpJson(object), serialized once.
  int64_t rv = 0;
};
using ObjectPtr = std::shared_ptr<const StoredObject>;

class ObjectStore {
 public:
  struct Options {
    size_t history = 10000;           // Events kept for watch resumption.
    size_t stream_capacity = 100000;  // Queued lines per watch before drop.
    Journal* journal = nullptr;       // Not owned; null: memory only.
  };

  struct Snapshot {
    int64_t rv = 0;  // The resourceVersion the items are the state at.
    std::vector<std::pair<std::string, ObjectPtr>> items;  // Sorted by key.
  };

  struct WatchSpec {
    std::string resource;
    std::function<bool(const Json&)> matches;  // Namespace and selectors.
    enum class Start {
      kInitialState,  // ADDED for every matching object, then live events.
      kAfter,         // The history after `rv`, then live events.
      kNow,           // Live events only.
    };
    Start start = Start::kInitialState;
    int64_t rv = 0;
    // After the initial state, a BOOKMARK annotated
    // k8s.io/initial-events-end=true (sendInitialEvents=true).
    bool initial_events_end = false;
    // The object a BOOKMARK carries: kind, apiVersion and the zero value;
    // the store sets metadata.resourceVersion.
    Json bookmark_template;
  };

  explicit ObjectStore(Options options);
  ObjectStore(const ObjectStore&) = delete;
  ObjectStore& operator=(const ObjectStore&) = delete;

  // Loads a journal's state before serving: objects keep their
  // resourceVersions, the counter continues from state.rv, history is empty.
  void Restore(const Journal::State& state);

  int64_t CurrentRv() const;
  // The smallest resourceVersion a watch may resume after, or a list may be
  // taken at; smaller ones fail with OUT_OF_RANGE.
  int64_t OldestResumableRv() const;

  StatusOr<ObjectPtr> Get(const std::string& resource,
                          const std::string& key) const;
  StatusOr<ObjectPtr> Create(const std::string& resource,
                             const std::string& key, Json object);
  // Replaces the object if its resourceVersion is still `expected_rv`.
  StatusOr<ObjectPtr> Replace(const std::string& resource,
                              const std::string& key, Json object,
                              int64_t expected_rv);
  // Deletes the object if its resourceVersion is `expected_rv` (0: any);
  // returns its last state stamped with the deletion's resourceVersion.
  StatusOr<ObjectPtr> Delete(const std::string& resource,
                             const std::string& key, int64_t expected_rv);

  // The resource's objects as of `at_rv` (0: now). Copies every key: for
  // whole-collection reads (tests, benchmarks); the list handler pages with
  // ListPage.
  StatusOr<Snapshot> List(const std::string& resource, int64_t at_rv) const;

  // One page of a list, as etcd serves a range read: the matching objects
  // from key `start` on as of `at_rv`, at most `limit` of them. The cost is
  // proportional to the keys visited (the page plus skipped non-matching
  // keys), plus the history newer than `at_rv` when that is not now; the
  // collection is never copied. OUT_OF_RANGE as List() for a compacted rv.
  struct PageSpec {
    std::string resource;
    int64_t at_rv = 0;  // 0: now.
    std::string start;  // The first key to consider; "": from the first.
    int64_t limit = 0;  // 0: no limit.
    std::function<bool(const Json&)> matches;  // Null: everything.
    // Count the matching objects after the page (remainingItemCount). The
    // count is kept per (resource, scope, rv, last key), so a list paged
    // to its end counts the collection once, not once per page; `scope`
    // names what `matches` selects (e.g. the namespace).
    bool count_remaining = false;
    std::string scope;
  };
  struct Page {
    int64_t rv = 0;  // The resourceVersion the items are the state at.
    std::vector<std::pair<std::string, ObjectPtr>> items;  // Sorted by key.
    bool more = false;       // Matching objects follow the last item.
    std::string next_start;  // With `more`: the start of the next page.
    int64_t remaining = -1;  // How many (count_remaining), else -1.
  };
  StatusOr<Page> ListPage(const PageSpec& spec) const;

  StatusOr<std::shared_ptr<WatchStream>> Watch(const WatchSpec& spec);
  void Unwatch(const WatchStream* stream);
  // Queues a BOOKMARK at the current resourceVersion on the stream, if it
  // has nothing queued (so a bookmark never overtakes an event).
  void OfferBookmark(const WatchStream* stream);
  // Closes every stream and refuses new watches (shutdown).
  void CloseAllWatches();
  size_t WatchCount() const;

 private:
  enum class EventType { kAdded, kModified, kDeleted };
  struct Event {
    EventType type;
    std::string resource;
    std::string key;
    int64_t rv;
    ObjectPtr object;  // New state; for kDeleted the last state, at rv.
    ObjectPtr prev;    // Previous state (kModified, kDeleted).
  };
  struct Watcher {
    WatchSpec spec;
    std::shared_ptr<WatchStream> stream;
  };

  static ObjectPtr Publish(Json object, int64_t rv);
  // Appends to the history and fans out to the watchers. Holds mu_; the
  // caller has journaled the write already.
  void RecordLocked(Event event) REQUIRES(mu_);
  // The line `w` should receive for `event`, or "" if none.
  static std::string LineFor(const Watcher& w, const Event& event);
  std::string BookmarkLine(const WatchSpec& spec, int64_t rv,
                           bool initial_end) const;

  // Objects of one resource at an older rv: the current map with `undo`
  // (key -> its state then; null: it did not exist) laid over it.
  using ObjectMap = std::map<std::string, ObjectPtr>;
  ObjectMap UndoSinceLocked(const std::string& resource, int64_t at_rv) const
      REQUIRES(mu_);
  // Calls `visit(key, object)` for the merged view's keys >= `start`, in
  // order, until it returns false.
  template <typename Visit>
  static void VisitFrom(const ObjectMap* current, const ObjectMap& undo,
                        const std::string& start, Visit visit);
  // Remembers rank counts for ListPage (bounded; oldest dropped first).
  void RememberCountLocked(std::string key, int64_t count) const REQUIRES(mu_);

  const Options options_;
  mutable base::Mutex mu_;
  int64_t rv_ GUARDED_BY(mu_) = 0;
  // RV of the newest event dropped from history.
  int64_t compacted_rv_ GUARDED_BY(mu_) = 0;
  std::map<std::string, std::map<std::string, ObjectPtr>> objects_
      GUARDED_BY(mu_);
  std::deque<Event> history_ GUARDED_BY(mu_);
  std::list<Watcher> watchers_ GUARDED_BY(mu_);
  bool closed_ GUARDED_BY(mu_) = false;
  // ListPage's counts: "<resource>\0<scope>\0<rv>\0<start>" -> matching
  // objects before `start` ("" start: in all).
  mutable std::map<std::string, int64_t> counts_ GUARDED_BY(mu_);
  mutable std::deque<std::string> count_order_ GUARDED_BY(mu_);
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_OBJECT_STORE_H_
