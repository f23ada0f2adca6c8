// ExtenderService: the scheduler extender's verbs (filter, prioritize,
// bind) and its inspect view, over a CardCache, independent of HTTP.
//
// Each verb takes the request body as kube-scheduler sends it and returns
// the HTTP status and body to answer with (docs/protocols.md section 2):
// - a body that is not the verb's JSON: 400 with a plain-text message, and
//   nothing changes;
// - filter: nodes where the pod's request fits on ONE healthy card (or N
//   entirely free healthy cards for gcu-count) pass (under binpack only the
//   best-ranked of them: the others fail with a reason naming a better
//   node, so kube-scheduler's spreading scores cannot undo the packing);
//   the others fail with
//   kInsufficientMemoryReason, or land in FailedAndUnresolvableNodes with
//   the precise reason when no preemption could help (not a sharing node,
//   no layout, unknown unit, request larger than any card, mixed request);
// - prioritize: 0..10 per candidate from CardAllocator (binpack: 10 for
//   the best-ranked);
// The binpack policy measures fragmentation against a RequestHistory: the
// GCU pods the pod watch showed holding card memory (PodFeed; so a
// restarted or second replica judges with the cluster's mix), or, without
// one, the pods this service has bound (it starts empty, where binpack is
// best fit) and, with a NodeResources, weighs the
// card memory a pod strands by taking a node's CPU or memory (HostFit):
// filter, prioritize and bind then rank as the replay's `default` policy.
// - bind: refuses (changing nothing) a pod that asks for no GCU resource,
//   a pod already bound elsewhere, and a pod/node pair the filter verb did
//   not pass (with a FilterRecord); answers success for a pod already bound
//   to the node with its cards (a retry). Otherwise chooses the card(s) and
//   reserves them in the cache under the cache's exclusive lock (so
//   concurrent binds never over-commit), creates the Binding carrying the
//   assignment annotations (one write: the API server merges them into the
//   pod as it binds it), and records an Event. Binds of one pod are
//   serialized (PodLocks). A Binding that fails is resolved by reading the
//   pod back: bound to the node is success; certainly not bound here drops
//   only this call's reservation (the failed Binding wrote nothing);
//   unreadable keeps the reservation (the watch settles it).
//
// Thread-safety: every method is safe for concurrent use.
// Ownership: cache, client, clock and registry are borrowed and must
// outlive the service.
#ifndef GCUSHARE_EXTENDER_EXTENDER_SERVICE_H_
#define GCUSHARE_EXTENDER_EXTENDER_SERVICE_H_

#include <array>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "extender/card_cache.h"
#include "extender/filter_record.h"
#include "extender/node_resources.h"
#include "extender/pod_locks.h"
#include "extender/protocol.h"
#include "extender/verdict_memo.h"
#include "kube/kube_client.h"
#include "metrics/registry.h"
#include "placement/card_allocator.h"
#include "placement/node_verdict.h"
#include "placement/request_mix.h"

namespace gcushare::extender {

struct HttpReply {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
};

class ExtenderService {
 public:
  // `filter_record` (may be null: bind then requires no earlier filter)
  // is written by Filter() and read by Bind(). `resources` (may be null:
  // no host figures) is read by all three verbs; borrowed, thread-safe.
  // `history` (may be null: the service keeps one of its own and records
  // each pod it binds there) is the binpack policy's request history, fed
  // by the caller (PodFeed); borrowed, thread-safe.
  ExtenderService(CardCache* cache, kube::KubeClient* client,
                  base::Clock* clock, placement::Policy policy,
                  metrics::Registry* registry,
                  FilterRecord* filter_record = nullptr,
                  const NodeResources* resources = nullptr,
                  const placement::RequestHistory* history = nullptr);

  HttpReply Filter(std::string_view body) const;
  HttpReply Prioritize(std::string_view body) const;
  HttpReply Bind(std::string_view body);
  // The same, with `fence` (may be null) asked right before the Binding is
  // created, after the card(s) are chosen and reserved: a non-OK Status
  // (e.g. this replica lost the right to bind) drops the reservation and
  // answers that error without writing anything (docs/ha.md).
  HttpReply Bind(std::string_view body, const std::function<Status()>& fence);
  // The plain-pod entry's prioritize (path /plain/prioritize; a second
  // scheduler extender entry without managedResources, so kube-scheduler
  // calls it for every pod): for a pod that asks for no GCU resource, the
  // binpack policy's PlainRank (the least card memory stranded by the CPU
  // and memory it takes, then BestFit's node rule), 9 for the best-ranked
  // sharing nodes and one less per rank below (at least 0); a node that is
  // not a sharing node strands no card memory and keeps the sharing nodes
  // free: 10; a sharing node whose host figures are unknown: 0. A pod that
  // asks for GCU resources, or
  // whose request cannot be read, gets 0 everywhere (the GCU entry
  // decides). Bad body: 400.
  HttpReply PrioritizePlain(std::string_view body) const;

  // The usage view of the vendor manual, {"nodes":[...]}, for every node
  // (sorted by name) or for one node (nullopt when it is not cached).
  // Keys keep the manual's order (inspect.cc).
  nlohmann::ordered_json InspectAll() const;
  std::optional<nlohmann::ordered_json> InspectNode(
      std::string_view name) const;

  // Binds in flight or waiting, per "<namespace>/<name>" (for tests).
  const PodLocks& pod_locks() const { return pod_locks_; }

 private:
  // OK, or why the pod was not bound (its message is the bind reply's
  // Error): FailedPrecondition/PermissionDenied for refusals that changed
  // nothing, ResourceExhausted when it no longer fits, the API's code when
  // the API server failed.
  Status BindPod(const BindingArgs& args, const std::function<Status()>& fence);
  // The request of `pod` (uid `uid`), or why it is not bound (changing
  // nothing): re-created since the call named it, unreadable, or asking for
  // no GCU resource.
  StatusOr<contract::PodRequest> BindRequest(const BindingArgs& args,
                                             const nlohmann::json& pod,
                                             const std::string& uid);
  // A bind's reservation in the cache.
  struct Reservation {
    uint64_t ticket = 0;      // CardCache::Assume()'s, for Forget().
    uint64_t card_total = 0;  // Units of the pod's first card.
    std::string unit_text;    // The node's unit, as its view shows it.
  };
  // Chooses the pod's card(s) on args.node and reserves them in the cache
  // (filling usage's cards, whole and units), atomically with respect to
  // other binds; ResourceExhausted when the pod no longer fits there.
  StatusOr<Reservation> Reserve(
      const BindingArgs& args, const contract::PodRequest& request,
      const std::optional<placement::HostRequest>& pod_host, PodUsage* usage);
  // Creates the Binding carrying the assignment. When it fails, the pod
  // read back decides: bound to the node is OK; unreadable keeps the
  // reservation; otherwise the reservation goes. Errors name the pod.
  Status CommitBinding(const BindingArgs& args,
                       const contract::PodRequest& request,
                       const PodUsage& usage, const Reservation& reserved);
  // Logs the pod's assignment and records it as an Event on the pod.
  void AnnounceAssigned(const BindingArgs& args, const PodUsage& usage,
                        const Reservation& reserved);
  // The answer for a pod whose spec.nodeName is already `bound_node`:
  // success for a retry to the same node of a pod that holds its cards
  // there, otherwise an error. Changes nothing either way.
  Status AlreadyBound(const BindingArgs& args, const nlohmann::json& pod,
                      const std::string& bound_node);
  // The pod's CPU and memory request; nullopt without resources_ or when
  // it cannot be read (the node is then ranked on its cards alone).
  std::optional<placement::HostRequest> PodHost(
      const nlohmann::json& pod) const;
  // The node's free CPU/memory and the pod's, or nullopt when either is
  // unknown.
  std::optional<placement::HostFit> HostOn(
      const std::string& node,
      const std::optional<placement::HostRequest>& pod) const;
  // Filter's and prioritize's verdicts for `names`, in order: the card
  // part through the memo (JudgeCards, kept per node version), then each
  // fitting candidate's host figures read now (HostRankPenalty; the pod's
  // CPU/memory read once). The verdicts live in the memo table: keep it
  // while reading them.
  struct Judged {
    std::shared_ptr<VerdictMemo::Table> memo;
    std::vector<const placement::NodeVerdict*> verdicts;
    // Per candidate, what its host figures take off its verdict's rank[0];
    // empty when none do.
    std::vector<double> penalty;
    // Candidate i's rank: Judge()'s placement.rank with its host figures.
    std::array<double, 3> Rank(size_t i) const {
      std::array<double, 3> rank = verdicts[i]->placement.rank;
      if (!penalty.empty()) rank[0] -= penalty[i];
      return rank;
    }
    // The best Rank() among the fitting candidates; nullopt when none fits.
    std::optional<std::array<double, 3>> BestRank() const;
  };
  Judged JudgeCandidates(const nlohmann::json& pod,
                         const contract::PodRequest& request,
                         const std::vector<std::string>& names) const;
  CardCache* const cache_;
  kube::KubeClient* const client_;
  base::Clock* const clock_;
  const placement::Policy policy_;
  FilterRecord* const filter_record_;
  const NodeResources* const resources_;
  PodLocks pod_locks_;
  // Pods bound by Bind(), when no history was given; thread-safe.
  placement::RequestHistory own_history_;
  const placement::RequestHistory* const
      history_;  // &own_history_ or the given one.
  // Filter's and prioritize's verdicts by node version; thread-safe. Bind
  // judges afresh under the cache's exclusive lock.
  mutable VerdictMemo memo_;
  metrics::Family<metrics::Counter>& bind_failures_;
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_EXTENDER_SERVICE_H_
