// Keeps a local copy of a collection (pods on a node, all nodes, ...) in
// step with the API server, and tells a handler what changed.
//
// It lists, then watches from the list's resourceVersion (bookmarks on),
// storing every event's resourceVersion (docs/protocols.md 3.3). How it
// lists is InformerOptions::list_form (docs/startup.md): by default as
// client-go's reflector does, the first list with resourceVersion=0 and
// no limit (one answer from the API server's watch cache, which may be a
// little behind etcd: the watch from its resourceVersion catches up, so no
// event is lost), a relist after 410 with the last resourceVersion seen
// and no limit (the cache again, at least that fresh), and a consistent
// paged list when the server refuses that resourceVersion (410 Expired, or
// 504 "Too large resource version") until a list succeeds. Then:
//   - the server ends the watch (timeout/EOF): re-watch from the last
//     resourceVersion;
//   - 410 Gone/Expired (HTTP or ERROR event): relist and reconcile the
//     store against the fresh list, page by page as it arrives (no second
//     copy of the collection is held): OnAdd for new objects and OnUpdate
//     for changed ones as their page arrives, then OnDelete for objects the
//     list no longer holds, so that a cache built
//     on the handler never keeps a ghost and misses no update; an object
//     re-created under the same name with a new uid is OnDelete of the old
//     incarnation then OnAdd of the new one (in a watch event too);
//   - a malformed event line or a connection error: log, back off, re-watch
//     from the last resourceVersion (which relists if that is gone).
//
// Threading: Start() spawns one thread. The handler's callbacks all run on
// that thread, one at a time, in event order; they must not throw and
// should not block for long (the watch stalls meanwhile). The store is
// updated before each callback runs. Snapshot(), Get(), HasSynced() and
// WaitForSync() may be called from any thread, including from a callback.
// Stop() cancels the in-flight list/watch/backoff sleep and joins; it must
// not be called from a callback. An Informer runs once: no Start() after
// Stop().
//
// Ownership: `client`, `handler` and options.clock are borrowed and must
// outlive the Informer.
#ifndef GCUSHARE_KUBE_INFORMER_H_
#define GCUSHARE_KUBE_INFORMER_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/backoff.h"
#include "base/cancellation.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "json/field_tree.h"
#include "kube/kube_client.h"
#include "kube/list_form.h"
#include "kube/resource.h"
#include "status/status.h"

namespace gcushare::kube {

// What an Informer reports; see the threading rules above.
class InformerHandler {
 public:
  virtual ~InformerHandler() = default;
  virtual void OnAdd(const nlohmann::json& object) = 0;
  virtual void OnUpdate(const nlohmann::json& old_object,
                        const nlohmann::json& new_object) = 0;
  // `last_state` is the object as last known (the DELETED event's object,
  // or the stored object when a relist found it gone).
  virtual void OnDelete(const nlohmann::json& last_state) = 0;

  // Optional, for a handler that keeps its own compact state of the objects
  // the transform drops (InformerOptions::transform); no-ops by default.
  // OnUnkept: an added, modified or listed object the transform dropped
  // (after OnDelete of its stored form, if it was kept before).
  virtual void OnUnkept(const nlohmann::json& /*object*/) {}
  // A DELETED watch event for an object the store does not hold.
  virtual void OnUnkeptDelete(const nlohmann::json& /*last_state*/) {}
  // Bracket a relist: every object the list holds is reported (OnAdd,
  // OnUpdate or OnUnkept; a stored object unchanged since is not) between
  // the two, so an unkept object not reported by OnUnkept in between was
  // deleted while the informer did not watch. OnRelistEnd follows only a
  // complete list (after the OnDelete of stored objects it no longer
  // holds); a list that fails midway is followed by a new OnRelistBegin.
  virtual void OnRelistBegin() {}
  virtual void OnRelistEnd() {}
  // After OnRelistBegin, before the list's first object: how many objects
  // the server says the list holds (ListOptions::expected_items), for
  // sizing tables; a hint only.
  virtual void OnRelistSize(size_t /*expected*/) {}
};

struct InformerOptions {
  std::string label_selector;
  std::string field_selector;
  ListForm list_form = ListForm::kWatchCache;  // kube/list_form.h
  // List page size (limit) of consistent lists.
  int64_t page_size = 500;
  int64_t watch_timeout_seconds = 300;  // Sent as timeoutSeconds.
  base::BackoffOptions backoff{std::chrono::milliseconds(500),
                               std::chrono::milliseconds(30000), 2.0, 0.2};
  base::Clock* clock = nullptr;  // Backoff sleeping; null: the real clock.
  // Optional: the form the store keeps of a decoded object, or nullopt to
  // ignore the object (neither stored nor reported; one stored before is
  // reported deleted). It must keep metadata.name, .namespace, .uid and
  // .resourceVersion. Handlers get the decoded object as new state and the
  // kept form as old state (OnUpdate's old object, a relist's OnDelete).
  // Runs on the informer's thread; must not throw. Null: keep everything.
  using Transform =
      std::function<std::optional<nlohmann::json>(const nlohmann::json&)>;
  Transform transform;
  // Optional, with a transform: reads a listed object from its JSON text,
  // before it is decoded, for the objects the transform drops. Returns true
  // when the object is one the transform would drop and the hook has itself
  // done what the handler's OnUnkept() would do with it (the informer then
  // neither decodes nor reports it); false, in any doubt, to decode and
  // report it as usual. Offered only during a list into an empty store (the
  // first list), where no object can have been stored under the key, and
  // only by a client that hands texts over (ListOptions::take_item_text).
  // Runs on the informer's thread, between OnRelistBegin() and
  // OnRelistEnd(); must not throw.
  using UnkeptText = std::function<bool(std::string_view text)>;
  UnkeptText unkept_text;
  // Optional, with a transform: the same for the objects the transform
  // keeps, offered when unkept_text (if any) declined. Returns the kept form
  // when the hook has itself done what the handler's OnAdd() would do with
  // the decoded object, and the kept form is what the transform would make
  // of it (the informer stores it, and neither decodes nor reports the
  // object); nullopt, in any doubt, to decode and report it as usual. Same
  // conditions and thread as unkept_text.
  using KeptText =
      std::function<std::optional<nlohmann::json>(std::string_view text)>;
  KeptText kept_text;
  // Optional: the fields of each object to decode from list pages and
  // watch events (json/field_tree.h); the rest is never built. Handlers and
  // the transform see only these (with a client that honours them, as
  // CurlKubeClient does); they must include what the transform keeps.
  // Empty: whole objects.
  json::FieldTree fields;
};

class Informer {
 public:
  using ObjectPtr = std::shared_ptr<const nlohmann::json>;

  // `ns` empty: all namespaces (or a cluster-scoped resource).
  Informer(KubeClient* client, Resource resource, std::string ns,
           InformerHandler* handler, InformerOptions options = {});
  ~Informer();  // Stop()s.
  Informer(const Informer&) = delete;
  Informer& operator=(const Informer&) = delete;

  void Start();
  // Returns promptly: cancels the stream and joins the thread. Idempotent.
  void Stop();

  // True once the first list has been stored and reported.
  bool HasSynced() const;
  // Waits (real time) until synced; false on timeout or when stopped.
  bool WaitForSync(std::chrono::milliseconds timeout);

  // The stored objects, sorted by key; shared, immutable.
  std::vector<ObjectPtr> Snapshot() const;
  // One object by key ("<namespace>/<name>" or "<name>"), or null.
  ObjectPtr Get(std::string_view key) const;
  size_t size() const;
  // The resourceVersion the next watch starts from.
  std::string resource_version() const;

  // Counters, for logs and tests.
  uint64_t lists() const { return lists_.load(); }
  uint64_t watches() const { return watches_.load(); }

  // "<namespace>/<name>", or "<name>" for cluster-scoped objects.
  static std::string KeyOf(const nlohmann::json& object);

 private:
  void Run();
  Status Relist();
  // One list of a relist: its options, by list_form_ and what is known.
  ListOptions ListOptionsNow() const;
  void Apply(WatchEvent event);
  void SetResourceVersion(std::string resource_version);
  // Stores `object` (kept form: `kept`) under `key` and reports it as
  // added, changed or re-created against what was stored.
  void Store(const std::string& key, const nlohmann::json& object,
             ObjectPtr kept, bool modified_event);
  // Stores `kept` under `key`, seen by the list under way; returns what
  // was stored there before (null for none). Reports nothing.
  ObjectPtr Put(const std::string& key, ObjectPtr kept);
  // Forgets `key`; reports OnDelete(`last_state`, or the stored form).
  void Forget(const std::string& key, const nlohmann::json* last_state);
  // Applies the transform, then Store()s or Forget()s under KeyOf(object).
  void Upsert(nlohmann::json object, bool modified_event);

  // A stored object and the list that last saw it (relist reconciliation).
  struct Entry {
    ObjectPtr object;
    uint64_t listed = 0;
  };

  KubeClient* const client_;
  const Resource resource_;
  const std::string ns_;
  InformerHandler* const handler_;
  const InformerOptions options_;
  std::unique_ptr<base::Clock> owned_clock_;
  base::Clock* clock_;

  base::Cancellation cancel_;
  std::thread thread_;
  base::Mutex lifecycle_mu_;  // Serialises Start() and Stop().
  bool started_ GUARDED_BY(lifecycle_mu_) = false;

  mutable base::Mutex mu_;
  base::CondVar synced_cv_;
  std::map<std::string, Entry, std::less<>> store_ GUARDED_BY(mu_);
  std::string resource_version_ GUARDED_BY(mu_);
  bool synced_ GUARDED_BY(mu_) = false;

  // The server refused the last resourceVersion for a list (410, or 504
  // too large): lists are consistent until one succeeds. Informer thread
  // only.
  bool resource_version_unavailable_ = false;

  // True during a list that began with an empty store: an object it drops
  // (transform) cannot be stored under its key, as a list names each key
  // once, so it is reported OnUnkept without a store lookup. Informer
  // thread only.
  bool listing_into_empty_ = false;

  std::atomic<uint64_t> lists_{0};
  std::atomic<uint64_t> watches_{0};
  std::atomic<uint64_t> events_{0};
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_INFORMER_H_
