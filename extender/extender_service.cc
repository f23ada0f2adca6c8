#include "extender/extender_service.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <functional>

#include "contract/annotations.h"
#include "contract/names.h"
#include "contract/pod_request.h"
#include "extender/pod_usage.h"
#include "extender/verdict_memo.h"
#include "kube/json_fields.h"
#include "placement/node_verdict.h"
#include "placement/plain_rank.h"

namespace gcushare::extender {

using placement::CachedNode;
using placement::CardUsage;
using placement::HostFit;
using placement::HostRankPenalty;
using placement::HostRequest;
using placement::Judge;
using placement::NodeVerdict;
using placement::PlainRank;
using placement::Policy;
using placement::RequestHistory;
using placement::RequestMix;

namespace {

HttpReply BadRequest(std::string message) {
  return HttpReply{400, std::move(message) + "\n", "text/plain"};
}

HttpReply Ok(std::string body) { return HttpReply{200, std::move(body)}; }

// The reason a fitting node is left out by the binpack filter.
std::string OutrankedReason(const std::string& best) {
  return "GCU binpack: node " + best +
         " holds this pod with less card memory stranded";
}

// The verdicts of one request's candidates, in the scheduler's order.
using Verdicts = std::vector<const NodeVerdict*>;

}  // namespace

ExtenderService::ExtenderService(CardCache* cache, kube::KubeClient* client,
                                 base::Clock* clock, Policy policy,
                                 metrics::Registry* registry,
                                 FilterRecord* filter_record,
                                 const NodeResources* resources,
                                 const RequestHistory* history)
    : cache_(cache),
      client_(client),
      clock_(clock),
      policy_(policy),
      filter_record_(filter_record),
      resources_(resources),
      history_(history != nullptr ? history : &own_history_),
      bind_failures_(registry->AddCounter(
          "gcushare_extender_bind_failures_total",
          "Binds answered with an error, by stage (request, pod, refused, "
          "placement, fenced, binding).",
          {"stage"})) {}

std::optional<HostRequest> ExtenderService::PodHost(
    const nlohmann::json& pod) const {
  if (resources_ == nullptr) return std::nullopt;
  StatusOr<HostRequest> host = PodHostRequest(pod);
  if (!host.ok()) return std::nullopt;
  return *host;
}

std::optional<HostFit> ExtenderService::HostOn(
    const std::string& node, const std::optional<HostRequest>& pod) const {
  if (!pod.has_value()) return std::nullopt;
  std::optional<HostRequest> free = resources_->Free(node);
  if (!free.has_value()) return std::nullopt;
  return HostFit{*free, *pod};
}

ExtenderService::Judged ExtenderService::JudgeCandidates(
    const nlohmann::json& pod, const contract::PodRequest& request,
    const std::vector<std::string>& names) const {
  Judged judged;
  std::shared_ptr<const RequestMix> mix = history_->Mix();
  judged.memo = memo_.For(request, policy_, mix, cache_->node_count());
  const bool host_ranked = policy_ == Policy::kBinpack && mix->knows_host();
  // Host figures of the fitting candidates only, found by the index their
  // cached node keeps (no second lookup of 500 names).
  std::vector<size_t> fitting;
  std::vector<std::string_view> fitting_names;
  std::vector<uint32_t> fitting_hosts;
  // Nodes looked up and judged under one read lock of the cache.
  cache_->WithNodes(names, [&](const std::vector<const CachedNode*>& nodes) {
    judged.verdicts = judged.memo->GetAll(nodes);
    if (!host_ranked) return;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (!judged.verdicts[i]->fits) continue;
      fitting.push_back(i);
      fitting_names.push_back(names[i]);
      fitting_hosts.push_back(nodes[i]->host_index);  // Fits: not null.
    }
  });
  if (!host_ranked || fitting.empty()) return judged;
  const std::optional<HostRequest> pod_host = PodHost(pod);
  if (!pod_host.has_value()) return judged;
  const std::vector<std::optional<HostRequest>> free =
      resources_->FreeOf(fitting_names, fitting_hosts);
  judged.penalty.assign(names.size(), 0);
  for (size_t k = 0; k < fitting.size(); ++k) {
    if (!free[k].has_value()) continue;
    judged.penalty[fitting[k]] =
        HostRankPenalty(*judged.verdicts[fitting[k]], policy_, mix.get(),
                        HostFit{*free[k], *pod_host});
  }
  return judged;
}

std::optional<std::array<double, 3>> ExtenderService::Judged::BestRank() const {
  std::optional<std::array<double, 3>> best;
  for (size_t i = 0; i < verdicts.size(); ++i) {
    if (!verdicts[i]->fits) continue;
    const std::array<double, 3> rank = Rank(i);
    if (!best.has_value() || rank > *best) best = rank;
  }
  return best;
}

HttpReply ExtenderService::Filter(std::string_view body) const {
  auto args = ParseExtenderArgs(body);
  if (!args.ok()) return BadRequest(args.status().message());
  auto request = contract::ComputePodRequest(args->pod);
  if (!request.ok()) {
    return Ok(
        EncodeFilterError("pod's GCU request: " + request.status().message()));
  }
  std::vector<std::string> names = args->TakeCandidateNames();
  if (!request->Wants()) {
    FilterResult result;
    result.passed = std::move(names);
    return Ok(EncodeFilterResult(*args, result));
  }
  const Judged judged = JudgeCandidates(args->pod, *request, names);
  const Verdicts& verdicts = judged.verdicts;
  // Binpack: only the best-ranked fitting nodes pass, so that
  // kube-scheduler's own scores (which spread pods) choose among equally
  // good nodes only; the others fail as unresolvable
  // (FailedAndUnresolvableNodes): the pod fits there already, so evicting
  // pods could not help, and kube-scheduler's preemption must not pick
  // victims on them (docs/protocols.md). Spread: every fitting node passes.
  const std::optional<std::array<double, 3>> best = judged.BestRank();
  std::vector<std::string> passed;
  std::vector<FailedNode> failed, unresolvable;
  std::string outranked;  // Built once; the answer borrows it.
  size_t failing = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    const NodeVerdict& verdict = *verdicts[i];
    if (!verdict.fits && !verdict.unresolvable) ++failing;
    if (verdict.fits &&
        (policy_ == Policy::kSpread || judged.Rank(i) == *best)) {
      if (passed.empty()) outranked = OutrankedReason(names[i]);
      passed.push_back(names[i]);
    }
  }
  // Sized once: hundreds of nodes fail a filter.
  failed.reserve(failing);
  unresolvable.reserve(names.size() - failing - passed.size());
  for (size_t i = 0; i < names.size(); ++i) {
    const NodeVerdict& verdict = *verdicts[i];
    if (verdict.fits) {
      if (policy_ != Policy::kSpread && judged.Rank(i) != *best) {
        unresolvable.push_back({names[i], outranked});
      }
    } else if (verdict.unresolvable) {
      unresolvable.push_back({names[i], verdict.reason});
    } else {
      failed.push_back({names[i], verdict.reason});
    }
  }
  if (filter_record_ != nullptr) {
    filter_record_->Record(PodIdentity(args->pod).uid, passed);
  }
  if (args->node_names.has_value() || !args->nodes.has_value()) {
    return Ok(EncodeFilterNames(passed, failed, unresolvable));
  }
  FilterResult result;  // Full Node objects (nodeCacheCapable=false).
  result.passed = std::move(passed);
  for (const FailedNode& node : failed) {
    result.failed.emplace(node.name, node.reason);
  }
  for (const FailedNode& node : unresolvable) {
    result.failed_unresolvable.emplace(node.name, node.reason);
  }
  return Ok(EncodeFilterResult(*args, result));
}

HttpReply ExtenderService::Prioritize(std::string_view body) const {
  auto args = ParseExtenderArgs(body);
  if (!args.ok()) return BadRequest(args.status().message());
  auto request = contract::ComputePodRequest(args->pod);
  std::vector<std::pair<std::string, int64_t>> scores;
  std::vector<std::string> names = args->TakeCandidateNames();
  scores.reserve(names.size());
  if (!request.ok() || !request->Wants()) {
    for (std::string& name : names) scores.emplace_back(std::move(name), 0);
    return Ok(EncodeHostPriorityList(scores));
  }
  const Judged judged = JudgeCandidates(args->pod, *request, names);
  const Verdicts& verdicts = judged.verdicts;
  // 0..10 per candidate (0 where the pod does not fit): binpack gives 10 to
  // the best-ranked nodes and at most 9 to the others; spread the
  // placement's score.
  const std::optional<std::array<double, 3>> best = judged.BestRank();
  for (size_t i = 0; i < names.size(); ++i) {
    const NodeVerdict& verdict = *verdicts[i];
    int64_t score = verdict.fits ? verdict.placement.score : 0;
    if (verdict.fits && policy_ == Policy::kBinpack) {
      score = judged.Rank(i) == *best ? 10 : std::min(score, int64_t{9});
    }
    scores.emplace_back(std::move(names[i]), score);
  }
  return Ok(EncodeHostPriorityList(scores));
}

HttpReply ExtenderService::PrioritizePlain(std::string_view body) const {
  auto args = ParseExtenderArgs(body);
  if (!args.ok()) return BadRequest(args.status().message());
  std::vector<std::string> names = args->CandidateNames();
  std::vector<std::pair<std::string, int64_t>> scores;
  scores.reserve(names.size());
  auto request = contract::ComputePodRequest(args->pod);
  const std::optional<HostRequest> pod_host = PodHost(args->pod);
  if (!request.ok() || request->Wants() || !pod_host.has_value()) {
    for (const std::string& name : names) scores.emplace_back(name, 0);
    return Ok(EncodeHostPriorityList(scores));
  }
  std::shared_ptr<const RequestMix> mix = history_->Mix();
  // Ranks of the sharing nodes with known host figures; fixed scores for
  // the others.
  std::vector<std::pair<size_t, std::array<double, 3>>> ranked;
  cache_->Visit(names, [&](const std::string& name, const CachedNode* node) {
    const std::optional<HostFit> host = HostOn(name, pod_host);
    if (node == nullptr || !host.has_value()) {
      scores.emplace_back(name, node == nullptr ? 10 : 0);
      return;
    }
    ranked.emplace_back(scores.size(),
                        PlainRank(&node->cards, *host, mix.get()));
    scores.emplace_back(name, 0);
  });
  std::vector<std::array<double, 3>> levels;
  levels.reserve(ranked.size());
  for (const auto& [at, rank] : ranked) levels.push_back(rank);
  std::sort(levels.begin(), levels.end(), std::greater<>());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  for (const auto& [at, rank] : ranked) {
    const auto level = std::find(levels.begin(), levels.end(), rank);
    scores[at].second =
        std::max<int64_t>(0, 9 - static_cast<int64_t>(level - levels.begin()));
  }
  return Ok(EncodeHostPriorityList(scores));
}

HttpReply ExtenderService::Bind(std::string_view body) {
  return Bind(body, nullptr);
}

HttpReply ExtenderService::Bind(std::string_view body,
                                const std::function<Status()>& fence) {
  auto args = ParseBindingArgs(body);
  if (!args.ok()) {
    bind_failures_.WithLabels({"request"}).Increment();
    return BadRequest(args.status().message());
  }
  // ExtenderBindingResult has only the error text; the code is for us.
  Status bound = BindPod(*args, fence);
  return Ok(EncodeBindingResult(bound.ok() ? "" : bound.message()));
}

Status ExtenderService::BindPod(const BindingArgs& args,
                                const std::function<Status()>& fence) {
  const std::string who = args.pod_namespace + "/" + args.pod_name;
  // Binds of one pod never interleave in this replica: a retry waits for
  // the first call's outcome, then sees the pod bound or its reservation.
  PodLocks::Guard pod_lock = pod_locks_.Lock(who);
  auto pod =
      client_->Get(kube::Resource::Pods(), args.pod_namespace, args.pod_name);
  if (!pod.ok()) {
    bind_failures_.WithLabels({"pod"}).Increment();
    return Status(pod.status().code(),
                  "cannot read pod " + who + ": " + pod.status().message());
  }
  PodUsage usage = PodIdentity(*pod);
  GCUSHARE_ASSIGN_OR_RETURN(contract::PodRequest request,
                            BindRequest(args, *pod, usage.uid));
  const std::string bound_node = kube::StringAt(*pod, {"spec", "nodeName"});
  if (!bound_node.empty()) return AlreadyBound(args, *pod, bound_node);
  if (filter_record_ != nullptr &&
      !filter_record_->Passed(usage.uid, args.node)) {
    bind_failures_.WithLabels({"refused"}).Increment();
    return PermissionDeniedError(
        "pod " + who + " was not filtered onto node " + args.node +
        " by this extender (bind follows filter in one scheduling cycle); "
        "nothing changed");
  }

  const std::optional<HostRequest> pod_host = PodHost(*pod);
  usage.node = args.node;
  GCUSHARE_ASSIGN_OR_RETURN(Reservation reserved,
                            Reserve(args, request, pod_host, &usage));
  if (fence) {
    if (Status fenced = fence(); !fenced.ok()) {
      cache_->Forget(usage.uid, reserved.ticket);
      bind_failures_.WithLabels({"fenced"}).Increment();
      spdlog::warn("pod {}: not bound: {}", who, fenced.message());
      return Status(fenced.code(), "pod " + who + " not bound: " +
                                       fenced.message() + "; nothing changed");
    }
  }
  GCUSHARE_RETURN_IF_ERROR(CommitBinding(args, request, usage, reserved));
  if (history_ == &own_history_) {  // Else the pod watch records it.
    own_history_.Record(usage.units, usage.whole ? usage.cards.size() : 0,
                        pod_host ? &*pod_host : nullptr);
  }
  AnnounceAssigned(args, usage, reserved);
  return OkStatus();
}

StatusOr<contract::PodRequest> ExtenderService::BindRequest(
    const BindingArgs& args, const nlohmann::json& pod,
    const std::string& uid) {
  const std::string who = args.pod_namespace + "/" + args.pod_name;
  if (!args.pod_uid.empty() && uid != args.pod_uid) {
    bind_failures_.WithLabels({"pod"}).Increment();
    return FailedPreconditionError("pod " + who + " has uid " + uid + ", not " +
                                   args.pod_uid + " (it was recreated)");
  }
  auto request = contract::ComputePodRequest(pod);
  if (!request.ok()) {
    bind_failures_.WithLabels({"pod"}).Increment();
    return InvalidArgumentError("pod " + who + ": " +
                                request.status().message());
  }
  if (!request->Wants()) {
    // kube-scheduler sends only pods that ask for a managed resource; a
    // caller asking us to bind any other pod is not kube-scheduler.
    bind_failures_.WithLabels({"refused"}).Increment();
    return PermissionDeniedError(
        "pod " + who + " asks for no " +
        std::string(contract::kResourceMemory) + " or " +
        std::string(contract::kResourceCount) +
        ": the extender binds only GCU pods; nothing changed");
  }
  return request;
}

StatusOr<ExtenderService::Reservation> ExtenderService::Reserve(
    const BindingArgs& args, const contract::PodRequest& request,
    const std::optional<HostRequest>& pod_host, PodUsage* usage) {
  // Choose and reserve atomically with respect to other binds.
  std::shared_ptr<const RequestMix> mix = history_->Mix();
  const std::optional<HostFit> host = HostOn(args.node, pod_host);
  std::string refusal;
  Reservation reserved;
  cache_->WithExclusive([&](CardCache::Locked& locked) {
    const PodUsage* existing = locked.Pod(usage->uid);
    const CachedNode* node = locked.Node(args.node);
    if (existing != nullptr && existing->node == args.node && node) {
      // An earlier bind of this pod to this node left its reservation (its
      // outcome was unknown): keep its cards. This call owns it from now.
      usage->cards = existing->cards;
    } else {
      NodeVerdict verdict =
          Judge(node, request, policy_, mix.get(), host ? &*host : nullptr);
      if (!verdict.fits) {
        refusal = verdict.reason;
        return;
      }
      usage->cards = verdict.placement.cards;
    }
    usage->whole = request.cards > 0;
    usage->units = usage->whole ? 0 : request.memory_units;
    for (const CardUsage& card : node->cards) {
      if (card.index == usage->cards.front()) {
        reserved.card_total = card.total_units;
      }
    }
    reserved.unit_text = node->view.unit_text;
    reserved.ticket = locked.Assume(*usage);
  });
  if (!refusal.empty()) {
    bind_failures_.WithLabels({"placement"}).Increment();
    return ResourceExhaustedError("node " + args.node + ": " + refusal);
  }
  return reserved;
}

Status ExtenderService::CommitBinding(const BindingArgs& args,
                                      const contract::PodRequest& request,
                                      const PodUsage& usage,
                                      const Reservation& reserved) {
  const std::string who = args.pod_namespace + "/" + args.pod_name;
  // One write: the Binding carries the assignment annotations, and the API
  // server merges them into the pod as it sets spec.nodeName (docs/protocols.md
  // 3.5). A Binding that did not commit wrote nothing, so there is nothing
  // to undo on the pod; the uid precondition keeps a re-created pod out.
  auto now = clock_->Now().time_since_epoch();
  contract::CardAssignment assignment = BuildAssignment(
      request, usage.cards, reserved.card_total,
      std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
  Status bound =
      client_->CreateBinding(args.pod_namespace, args.pod_name, usage.uid,
                             args.node, contract::EncodeAssignment(assignment));
  if (bound.ok()) return OkStatus();
  // A Binding that timed out, got a 5xx, lost its connection or met a
  // 409 may still have committed: the pod itself says what happened.
  auto back =
      client_->Get(kube::Resource::Pods(), args.pod_namespace, args.pod_name);
  const std::string now_node =
      back.ok() ? kube::StringAt(*back, {"spec", "nodeName"}) : "";
  if (back.ok() && now_node == args.node &&
      PodIdentity(*back).uid == usage.uid) {
    spdlog::info("pod {}: Binding answered {} but the pod is bound to {}", who,
                 bound.message(), args.node);
    return OkStatus();
  }
  if (!back.ok()) {
    // Unknown outcome: keep the reservation; the watch settles it (a
    // bound pod stays counted, a deleted one frees) and a retried bind
    // to this node reuses it.
    bind_failures_.WithLabels({"binding"}).Increment();
    spdlog::warn(
        "pod {}: Binding to {} failed ({}) and the pod cannot be read "
        "back ({}); keeping its reservation until the watch shows it",
        who, args.node, bound.message(), back.status().message());
    return Status(bound.code(), "cannot bind pod " + who + " to " + args.node +
                                    ": " + bound.message() +
                                    " (outcome unknown; the reservation "
                                    "stays)");
  }
  // Certainly not bound here: not bound at all, bound elsewhere by
  // another binder, or re-created. Only this call's reservation goes.
  spdlog::warn(
      "pod {}: Binding to {} failed ({}); dropping its "
      "reservation",
      who, args.node, bound.message());
  cache_->Forget(usage.uid, reserved.ticket);
  bind_failures_.WithLabels({"binding"}).Increment();
  return Status(bound.code(),
                "cannot bind pod " + who + " to " + args.node + ": " +
                    bound.message() +
                    (now_node.empty() ? std::string()
                                      : " (it is bound to " + now_node + ")"));
}

void ExtenderService::AnnounceAssigned(const BindingArgs& args,
                                       const PodUsage& usage,
                                       const Reservation& reserved) {
  const std::string who = args.pod_namespace + "/" + args.pod_name;
  std::string message =
      usage.whole
          ? "Assigned whole GCU card(s) " +
                contract::JoinCardList(usage.cards) + " on node " + args.node
          : "Assigned GCU card " + contract::JoinCardList(usage.cards) +
                " on node " + args.node + ": " + std::to_string(usage.units) +
                " of " + std::to_string(reserved.card_total) + " units (unit " +
                reserved.unit_text + " GiB)";
  kube::ObjectReference ref{"Pod", args.pod_namespace, args.pod_name,
                            usage.uid};
  auto event =
      client_->CreateEvent(args.pod_namespace, ref, "Normal", "GCUAssigned",
                           message, contract::kExtenderName);
  if (!event.ok()) {
    spdlog::warn("pod {}: event not recorded: {}", who,
                 event.status().message());
  }
  spdlog::info("pod {}: {}", who, message);
}

Status ExtenderService::AlreadyBound(const BindingArgs& args,
                                     const nlohmann::json& pod,
                                     const std::string& bound_node) {
  const std::string who = args.pod_namespace + "/" + args.pod_name;
  if (bound_node == args.node) {
    // A retry of a bind whose reply was lost: success when the pod holds
    // a GCU assignment there (in its annotations or our reservation).
    auto held = PodUsageFromPod(pod);
    const std::string uid = PodIdentity(pod).uid;
    std::optional<PodUsage> cached = cache_->Pod(uid);
    if ((held.ok() && held->has_value() && (*held)->node == args.node) ||
        (cached.has_value() && cached->node == args.node)) {
      spdlog::info(
          "pod {}: already bound to {} with its cards; bind retry "
          "answered success",
          who, args.node);
      return OkStatus();
    }
    bind_failures_.WithLabels({"refused"}).Increment();
    return FailedPreconditionError(
        "pod " + who + " is already bound to " + args.node +
        " without a GCU assignment; nothing changed");
  }
  bind_failures_.WithLabels({"refused"}).Increment();
  return FailedPreconditionError("pod " + who + " is already bound to node " +
                                 bound_node + ", not " + args.node +
                                 "; nothing changed");
}

}  // namespace gcushare::extender
