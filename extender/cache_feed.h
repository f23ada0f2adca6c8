// Informer handlers that keep a CardCache in step with the API server:
// NodeFeed for nodes labelled enflame.com/gcushare=true, PodFeed for all
// pods. A pod with malformed assignment annotations is logged and left
// uncounted (its memory cannot be placed on a card). With a NodeResources,
// they also keep the nodes' allocatable CPU/memory and the requests of ALL
// pods on them (the GCU pods the informer stores and the others it reports
// as unkept; a pod with an unreadable request is logged and not counted).
//
// Ownership: the cache and the resources are borrowed. Thread-safety: as
// kube::Informer calls them (one thread per informer); the cache is
// thread-safe.
#ifndef GCUSHARE_EXTENDER_CACHE_FEED_H_
#define GCUSHARE_EXTENDER_CACHE_FEED_H_

#include <nlohmann/json.hpp>
#include <optional>

#include "contract/pod_request.h"
#include "extender/card_cache.h"
#include "extender/node_resources.h"
#include "extender/pod_text.h"
#include "extender/unkept_pod_text.h"
#include "json/field_tree.h"
#include "kube/event_queue.h"
#include "kube/informer.h"
#include "placement/request_mix.h"

namespace gcushare::extender {

// What the informers keep (kube::InformerOptions::transform); docs/extender.md
// "What the extender keeps in memory". The CardCache holds what placement
// needs, so the informers keep only what reconciling and the handlers'
// old-state checks read:
// - a pod that asks for GCU resources (or whose request cannot be read):
//   metadata name, namespace, uid, resourceVersion; any other pod: nothing
//   (it is neither stored nor reported);
// - a node: metadata name, uid, resourceVersion, the sharing label and the
//   GCU annotations (all ReadNodeView() reads).
std::optional<nlohmann::json> PodKeptForm(const nlohmann::json& pod);
std::optional<nlohmann::json> NodeKeptForm(const nlohmann::json& node);

// What the informers decode of each object (kube::InformerOptions::fields):
// all that the kept forms above, the feeds and the CardCache read, and
// nothing else (docs/extender.md "What the extender keeps in memory"):
// - a pod: metadata name, namespace, uid, resourceVersion,
//   creationTimestamp and the GCU assignment annotations; spec.nodeName;
//   name, restartPolicy and resources of each (init) container;
//   status.phase (NodeResources reads the node name, phase and CPU/memory
//   requests of every pod from these too);
// - a node: metadata name, uid, resourceVersion, the sharing label, the
//   GCU annotations and status.allocatable cpu and memory.
json::FieldTree PodFields();
json::FieldTree NodeFields();

class NodeFeed : public kube::InformerHandler {
 public:
  // `resources` may be null (no host figures).
  explicit NodeFeed(CardCache* cache, NodeResources* resources = nullptr)
      : cache_(cache), resources_(resources) {}
  void OnAdd(const nlohmann::json& node) override;
  void OnUpdate(const nlohmann::json& old_node,
                const nlohmann::json& new_node) override;
  void OnDelete(const nlohmann::json& last_state) override;

 private:
  void UpsertResources(const nlohmann::json& node);
  // resources_->IndexOf(name), or kNoHostIndex without resources_.
  uint32_t HostIndex(std::string_view name);

  CardCache* const cache_;
  NodeResources* const resources_;
};

class PodFeed : public kube::InformerHandler {
 public:
  // `events` (may be null) gets a Warning event, once, for a pod whose GCU
  // assignment cannot be read (it stays counted; see CardCache::UpsertPod).
  // `resources` (may be null) counts every pod's CPU and memory.
  // `history` (may be null) gets the GCU request (and CPU/memory) of every
  // pod the watch shows holding card memory, once per pod
  // (CardCache::UpsertPod's first watched record): after a restart, the
  // pods already running; then each pod bound, by any replica. The binpack
  // policy measures fragmentation against it (ExtenderService).
  explicit PodFeed(CardCache* cache, kube::EventQueue* events = nullptr,
                   NodeResources* resources = nullptr,
                   placement::RequestHistory* history = nullptr)
      : cache_(cache),
        events_(events),
        resources_(resources),
        history_(history) {}
  // PodKeptForm(), remembering the request it computed for `pod` so that
  // the OnAdd/OnUpdate/OnUnkept the informer reports next for the same
  // object uses it instead of computing it again (one computation per pod
  // event). For InformerOptions::transform; on the informer's thread.
  std::optional<nlohmann::json> KeptForm(const nlohmann::json& pod);
  void OnAdd(const nlohmann::json& pod) override;
  void OnUpdate(const nlohmann::json& old_pod,
                const nlohmann::json& new_pod) override;
  void OnDelete(const nlohmann::json& last_state) override;
  // Pods without GCU requests (not stored): NodeResources only.
  void OnUnkept(const nlohmann::json& pod) override;
  void OnUnkeptDelete(const nlohmann::json& last_state) override;
  void OnRelistBegin() override;
  void OnRelistEnd() override;
  // Reserves NodeResources' pod table for the whole list.
  void OnRelistSize(size_t expected) override;
  // For InformerOptions::unkept_text: a listed pod's text that
  // UnkeptPodReader reads (a pod without GCU requests) is counted in
  // resources_ as OnUnkept() would count the decoded pod; true then. False
  // (decode it as usual) for any other text, or when the count fails.
  bool TakeUnkeptText(std::string_view text);
  // For InformerOptions::kept_text: a listed pod's text that PodTextReader
  // reads, of a bound, unfinished pod that asks for GCU, with a readable
  // request and host request and an assignment that names its cards, is
  // counted as OnAdd() would count the decoded pod (resources_, the cache,
  // the history); its kept form (KeptForm() of the decoded pod) then.
  // Nullopt, with nothing changed, for any other text (decode it as usual:
  // OnAdd() logs and reports what is wrong with it).
  std::optional<nlohmann::json> TakeKeptText(std::string_view text);

 private:
  // Counts `pod` with its PodHostRequest() `host` in resources_ (not
  // null), logging an unreadable request.
  void CountHost(const nlohmann::json& pod,
                 const StatusOr<placement::HostRequest>& host, bool stored);
  // The request KeptForm() computed if `pod` is the object it ran on (taken:
  // used once), else computed now.
  StatusOr<contract::PodRequest> TakeRequest(const nlohmann::json& pod);

  CardCache* const cache_;
  kube::EventQueue* const events_;
  NodeResources* const resources_;
  placement::RequestHistory* const history_;
  // What KeptForm() computed last, and for which object (not owned; only
  // compared). Informer thread only.
  const nlohmann::json* memo_pod_ = nullptr;
  StatusOr<contract::PodRequest> memo_request_{contract::PodRequest()};
  UnkeptPodReader unkept_reader_;  // Informer thread only.
  PodTextReader kept_reader_;      // Informer thread only.
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_CACHE_FEED_H_
