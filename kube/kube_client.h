// The Kubernetes API client used by the scheduler extender, the device
// plugin and the NRI plugin. Objects are nlohmann::json values exactly as
// the API server sends them.
//
// Implementations: CurlKubeClient (kube/curl_kube_client.h) talks to a real
// API server; FakeKubeClient (kube/testing/fake_kube_client.h) keeps objects in
// memory for other components' unit tests.
//
// Failure: every method returns a Status; API errors carry the HTTP code in
// Status::http_code() and the server's "<reason>: <message>" (see
// kube/api_status.h), so callers test `status.http_code() == 409`.
// Transport failures are kUnavailable (http_code() 0) after the retries of
// kube/retrying_http_client.h. Nothing throws.
// Thread-safety: implementations are safe for concurrent calls.
#ifndef GCUSHARE_KUBE_KUBE_CLIENT_H_
#define GCUSHARE_KUBE_KUBE_CLIENT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "base/cancellation.h"
#include "json/field_tree.h"
#include "kube/resource.h"
#include "status/status.h"

namespace gcushare::kube {

struct ListOptions {
  std::string label_selector;  // "app=foo,tier!=fe"
  std::string field_selector;  // "spec.nodeName=n1"
  // Page size; 0 asks for everything at once. Pages are followed through
  // metadata.continue until the list is complete.
  int64_t limit = 0;
  // "" for a consistent read; "0" for any cached state.
  std::string resource_version;
  base::Cancellation* cancel = nullptr;  // Not owned; may be null.
  // Optional: decode only these fields of each item (json/field_tree.h),
  // the rest of the page is scanned but never built; null: whole items.
  // A client may hand over more than asked (FakeKubeClient does), never
  // less. Not owned; must outlive the call.
  const json::FieldTree* fields = nullptr;
  // Optional (ListEach): called at most once, before the first item is
  // handed over, with the number of items the list holds as the server
  // counts them: with paging, `limit` plus the first page's
  // metadata.remainingItemCount (not called when the server does not say);
  // the default ListEach() tells the size of the whole list. A hint for
  // sizing tables, no more.
  std::function<void(size_t)> expected_items;
  // Optional (ListEach): offered each item's JSON text before it is
  // decoded; true: the caller has dealt with the item from its text, and
  // it is neither decoded nor handed to `each`. A shortcut only: a client
  // may decode every item without offering it (CurlKubeClient offers the
  // items of unpaged answers, as the server wrote them; the default
  // ListEach() offers each item's dump()).
  std::function<bool(std::string_view item)> take_item_text;
};

struct ObjectList {
  std::vector<nlohmann::json> items;
  std::string resource_version;  // The list's metadata.resourceVersion.
};

struct WatchOptions {
  std::string label_selector;
  std::string field_selector;
  std::string resource_version;  // Where to start; "" or "0": current state.
  bool allow_watch_bookmarks = true;
  int64_t timeout_seconds = 0;  // 0: the server's default.
  // Ends the watch (Watch returns kCancelled) from any thread.
  base::Cancellation* cancel = nullptr;  // Not owned; may be null.
  // As ListOptions::fields, for each event's object (an ERROR event's
  // Status is always read whole).
  const json::FieldTree* fields = nullptr;
};

enum class WatchEventType { kAdded, kModified, kDeleted, kBookmark };

// "ADDED", "MODIFIED", "DELETED", "BOOKMARK".
std::string_view WatchEventTypeName(WatchEventType type);

struct WatchEvent {
  WatchEventType type = WatchEventType::kAdded;
  // The object; for kDeleted its last state; for kBookmark an object of the
  // watched kind in which only metadata.resourceVersion is meaningful.
  nlohmann::json object;
};

// Runs on the thread that called List()/ListEach(), once per item, in list
// order.
using ListItemCallback = std::function<void(nlohmann::json item)>;

// Runs on the thread that called Watch(), once per event, in stream order.
using WatchCallback = std::function<void(WatchEvent event)>;

enum class PatchType { kMerge, kStrategicMerge, kJsonPatch };

// "application/merge-patch+json" and so on (docs/protocols.md 3.6).
std::string_view PatchContentType(PatchType type);

struct DeleteOptions {
  std::string uid_precondition;       // Delete only this incarnation.
  int64_t grace_period_seconds = -1;  // -1: the object's default.
};

// The object an Event is about (core/v1 ObjectReference).
struct ObjectReference {
  std::string kind;            // "Pod", "Node"
  std::string namespace_name;  // "" for cluster-scoped objects.
  std::string name;
  std::string uid;
  std::string api_version = "v1";
};

class KubeClient {
 public:
  virtual ~KubeClient() = default;

  // One object. `ns` is empty for cluster-scoped resources.
  virtual StatusOr<nlohmann::json> Get(const Resource& resource,
                                       std::string_view ns,
                                       std::string_view name) = 0;

  // The whole collection (`ns` empty: all namespaces), following continue
  // tokens. An expired continue token fails with http_code() 410.
  virtual StatusOr<ObjectList> List(const Resource& resource,
                                    std::string_view ns,
                                    const ListOptions& options) = 0;

  // As List(), but hands each item to `each` as its page arrives, so that
  // at most one page is held decoded (a caller that keeps a compact form
  // never holds the whole collection). Returns the list's resourceVersion.
  // On an error some items may have been handed over already. The default
  // runs List() and hands its items over.
  virtual StatusOr<std::string> ListEach(const Resource& resource,
                                         std::string_view ns,
                                         const ListOptions& options,
                                         const ListItemCallback& each);

  // Streams events to `callback` until the stream ends. Returns OK when the
  // server ended it (timeout or EOF: re-watch from the last
  // resourceVersion); kCancelled when options.cancel fired; the ERROR
  // event's Status (http_code() 410 when the resourceVersion is too old),
  // or the HTTP error of the request; kDataLoss naming the problem and the
  // start of the line for a malformed line; kUnavailable when the
  // connection drops mid-stream.
  virtual Status Watch(const Resource& resource, std::string_view ns,
                       const WatchOptions& options,
                       const WatchCallback& callback) = 0;

  // POST; returns the created object. 409 AlreadyExists when it exists.
  virtual StatusOr<nlohmann::json> Create(const Resource& resource,
                                          std::string_view ns,
                                          const nlohmann::json& object) = 0;

  // PUT of the whole object (named by its metadata.name); a stale
  // metadata.resourceVersion gives 409 Conflict.
  virtual StatusOr<nlohmann::json> Update(const Resource& resource,
                                          std::string_view ns,
                                          const nlohmann::json& object) = 0;

  // PUT of the status subresource (.../<name>/status, named by
  // metadata.name): the server keeps spec and metadata and takes `object`'s
  // status; a stale metadata.resourceVersion gives 409 Conflict. The default
  // answers Unimplemented (for clients that never write a status).
  virtual StatusOr<nlohmann::json> UpdateStatus(const Resource& resource,
                                                std::string_view ns,
                                                const nlohmann::json& object);

  virtual Status Delete(const Resource& resource, std::string_view ns,
                        std::string_view name,
                        const DeleteOptions& options) = 0;

  // PATCH with the Content-Type of `type`; `subresource` is "" or "status".
  virtual StatusOr<nlohmann::json> Patch(const Resource& resource,
                                         std::string_view ns,
                                         std::string_view name, PatchType type,
                                         const nlohmann::json& patch,
                                         std::string_view subresource) = 0;

  // Binds pod `ns`/`pod` to `node` (docs/protocols.md 3.5). `uid`, when not
  // empty, is a precondition; `annotations` are merged into the pod's. An
  // already bound pod gives 409 Conflict.
  virtual Status CreateBinding(
      std::string_view ns, std::string_view pod, std::string_view uid,
      std::string_view node,
      const std::map<std::string, std::string>& annotations) = 0;

  // Records a core/v1 Event about `involved` that `kubectl describe` shows.
  // `ns` empty: the object's namespace, or "default" for cluster-scoped
  // objects. `type` is "Normal" or "Warning". Returns the created Event.
  virtual StatusOr<nlohmann::json> CreateEvent(
      std::string_view ns, const ObjectReference& involved,
      std::string_view type, std::string_view reason, std::string_view message,
      std::string_view reporting_component) = 0;
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_KUBE_CLIENT_H_
