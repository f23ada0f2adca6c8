// An in-memory KubeClient for other components' unit tests: objects live in
// maps, every change gets a resourceVersion and a watch event, and watches
// replay history and then block for new changes, like the API server.
//
// Faithful enough for unit tests, not a conformance reference:
//   - resourceVersions are increasing integers (as strings);
//   - Create fills uid, resourceVersion, creationTimestamp and expands
//     metadata.generateName; an existing name gives 409 AlreadyExists;
//   - Update and Patch with a stale metadata.resourceVersion give 409
//     Conflict; Patch applies merge patches (strategic merge is treated as
//     a merge patch: lists are replaced) and JSON patches, to the whole
//     object whatever the subresource;
//   - UpdateStatus replaces only the status (same resourceVersion rule);
//   - CreateBinding sets spec.nodeName, merges annotations and adds the
//     PodScheduled condition; a bound pod or a wrong UID gives 409
//     Conflict;
//   - selectors: label terms k=v, k==v, k!=v, k, !k; field terms on dotted
//     paths with =, ==, != (set-based syntax is InvalidArgument);
//   - a watch from an RV older than ExpireHistory() fails with 410; no
//     bookmarks; CloseWatches() ends open watches as a server timeout would.
// Errors are shaped like CurlKubeClient's (http_code(), "<reason>:
// <message>"). FailNext() injects an error into the next call of a method.
//
// Thread-safety: all methods may be called concurrently; watch callbacks
// run on the watching thread without internal locks held, so they may call
// back into the fake.
#ifndef GCUSHARE_KUBE_TESTING_FAKE_KUBE_CLIENT_H_
#define GCUSHARE_KUBE_TESTING_FAKE_KUBE_CLIENT_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "kube/kube_client.h"

namespace gcushare::kube {

class FakeKubeClient : public KubeClient {
 public:
  FakeKubeClient() = default;

  // Stores `object` as if created (namespace from its metadata).
  StatusOr<nlohmann::json> Seed(const Resource& resource,
                                nlohmann::json object);

  // The next call of `method` fails with `status`. Methods: "get", "list",
  // "watch", "create", "update", "delete", "patch", "binding", "event".
  void FailNext(const std::string& method, Status status);

  // Called at the start of every CreateBinding, outside the fake's lock
  // (it may block, to hold a Binding in flight); a non-OK Status is
  // answered without binding. Null: none. Set before concurrent use.
  void SetBindingHook(std::function<Status()> hook);

  // Ends every open watch cleanly (they return OK).
  void CloseWatches();
  // Forgets history up to now: open watches and watches from an older RV
  // fail with 410 Expired.
  void ExpireHistory();

  // Every call in order: "create pods ns/p1", "get nodes /n1",
  // "binding pods ns/p1 -> n1", "event Pod ns/p1 GcuAllocated", ...
  std::vector<std::string> actions() const;

  // The current resourceVersion.
  std::string resource_version() const;

  StatusOr<nlohmann::json> Get(const Resource& resource, std::string_view ns,
                               std::string_view name) override;
  StatusOr<ObjectList> List(const Resource& resource, std::string_view ns,
                            const ListOptions& options) override;
  Status Watch(const Resource& resource, std::string_view ns,
               const WatchOptions& options,
               const WatchCallback& callback) override;
  StatusOr<nlohmann::json> Create(const Resource& resource, std::string_view ns,
                                  const nlohmann::json& object) override;
  StatusOr<nlohmann::json> Update(const Resource& resource, std::string_view ns,
                                  const nlohmann::json& object) override;
  StatusOr<nlohmann::json> UpdateStatus(const Resource& resource,
                                        std::string_view ns,
                                        const nlohmann::json& object) override;
  Status Delete(const Resource& resource, std::string_view ns,
                std::string_view name, const DeleteOptions& options) override;
  StatusOr<nlohmann::json> Patch(const Resource& resource, std::string_view ns,
                                 std::string_view name, PatchType type,
                                 const nlohmann::json& patch,
                                 std::string_view subresource) override;
  Status CreateBinding(
      std::string_view ns, std::string_view pod, std::string_view uid,
      std::string_view node,
      const std::map<std::string, std::string>& annotations) override;
  StatusOr<nlohmann::json> CreateEvent(
      std::string_view ns, const ObjectReference& involved,
      std::string_view type, std::string_view reason, std::string_view message,
      std::string_view reporting_component) override;

 private:
  struct Change {
    std::string resource;  // Resource key.
    WatchEventType type;
    nlohmann::json object;
    int64_t rv;
  };
  using Objects = std::map<std::string, nlohmann::json>;

  // Records the call as "<method> <what>" and returns an injected failure.
  Status TakeFailureLocked(const std::string& method, const std::string& what)
      REQUIRES(mu_);
  StatusOr<nlohmann::json> CreateLocked(const Resource& resource,
                                        std::string_view ns,
                                        nlohmann::json object) REQUIRES(mu_);
  StatusOr<nlohmann::json> ReplaceLocked(const Resource& resource,
                                         const std::string& key,
                                         nlohmann::json object) REQUIRES(mu_);
  void RecordLocked(const std::string& resource, WatchEventType type,
                    const nlohmann::json& object) REQUIRES(mu_);

  mutable base::Mutex mu_;
  base::CondVar changed_;
  // By resource key, then key.
  std::map<std::string, Objects> objects_ GUARDED_BY(mu_);
  std::deque<Change> history_ GUARDED_BY(mu_);
  int64_t rv_ GUARDED_BY(mu_) = 1;
  // Watches from an RV below this get 410.
  int64_t expired_before_ GUARDED_BY(mu_) = 0;
  uint64_t close_generation_ GUARDED_BY(mu_) = 0;
  uint64_t next_uid_ GUARDED_BY(mu_) = 1;
  std::multimap<std::string, Status> failures_ GUARDED_BY(mu_);
  std::vector<std::string> actions_ GUARDED_BY(mu_);
  // Set before the calls it hooks (SetBindingHook()); read unlocked.
  std::function<Status()> binding_hook_;
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_TESTING_FAKE_KUBE_CLIENT_H_
