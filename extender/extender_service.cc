#include "extender/extender_service.h"

#include <spdlog/spdlog.h>

#include <chrono>

#include "contract/annotations.h"
#include "contract/names.h"
#include "contract/pod_request.h"
#include "extender/node_verdict.h"
#include "extender/pod_usage.h"

namespace gcushare::extender {
namespace {

HttpReply BadRequest(std::string message) {
  return HttpReply{400, std::move(message) + "\n", "text/plain"};
}

HttpReply Ok(std::string body) { return HttpReply{200, std::move(body)}; }

// The candidates of `args` with their full Node objects (null for names).
std::vector<std::pair<std::string, const nlohmann::json*>> Candidates(
    const ExtenderArgs& args) {
  std::vector<std::pair<std::string, const nlohmann::json*>> out;
  if (args.nodes.has_value()) {
    for (const nlohmann::json& node : *args.nodes) {
      std::string name;
      auto metadata = node.find("metadata");
      if (metadata != node.end() && metadata->is_object()) {
        name = metadata->value("name", "");
      }
      out.emplace_back(std::move(name), &node);
    }
  } else if (args.node_names.has_value()) {
    for (const std::string& name : *args.node_names) {
      out.emplace_back(name, nullptr);
    }
  }
  return out;
}

std::string JoinCards(const std::vector<uint32_t>& cards) {
  return contract::JoinCardList(cards);
}

}  // namespace

ExtenderService::ExtenderService(CardCache* cache, kube::KubeClient* client,
                                 kube::Clock* clock, Policy policy,
                                 metrics::Registry* registry)
    : cache_(cache),
      client_(client),
      clock_(clock),
      policy_(policy),
      bind_failures_(registry->AddCounter(
          "gcushare_extender_bind_failures_total",
          "Binds answered with an error, by stage (request, pod, placement, "
          "annotate, binding).",
          {"stage"})) {}

HttpReply ExtenderService::Filter(std::string_view body) const {
  auto args = ParseExtenderArgs(body);
  if (!args.ok()) return BadRequest(args.status().message());
  auto request = contract::ComputePodRequest(args->pod);
  if (!request.ok()) {
    return Ok(
        EncodeFilterError("pod's GCU request: " + request.status().message()));
  }
  FilterResult result;
  auto candidates = Candidates(*args);
  if (!request->Wants()) {
    for (const auto& [name, node] : candidates) result.passed.push_back(name);
    return Ok(EncodeFilterResult(*args, result));
  }
  std::vector<std::string> names;
  names.reserve(candidates.size());
  for (const auto& [name, node] : candidates) names.push_back(name);
  cache_->Visit(names, [&](const std::string& name, const CachedNode* node) {
    NodeVerdict verdict = Judge(node, *request, policy_);
    if (verdict.fits) {
      result.passed.push_back(name);
    } else if (verdict.unresolvable) {
      result.failed_unresolvable[name] = verdict.reason;
    } else {
      result.failed[name] = verdict.reason;
    }
  });
  return Ok(EncodeFilterResult(*args, result));
}

HttpReply ExtenderService::Prioritize(std::string_view body) const {
  auto args = ParseExtenderArgs(body);
  if (!args.ok()) return BadRequest(args.status().message());
  auto request = contract::ComputePodRequest(args->pod);
  std::vector<std::pair<std::string, int64_t>> scores;
  auto candidates = Candidates(*args);
  std::vector<std::string> names;
  for (const auto& [name, node] : candidates) names.push_back(name);
  scores.reserve(names.size());
  if (!request.ok() || !request->Wants()) {
    for (const std::string& name : names) scores.emplace_back(name, 0);
    return Ok(EncodeHostPriorityList(scores));
  }
  cache_->Visit(names, [&](const std::string& name, const CachedNode* node) {
    NodeVerdict verdict = Judge(node, *request, policy_);
    scores.emplace_back(name, verdict.fits ? verdict.placement.score : 0);
  });
  return Ok(EncodeHostPriorityList(scores));
}

HttpReply ExtenderService::Bind(std::string_view body) {
  auto args = ParseBindingArgs(body);
  if (!args.ok()) {
    bind_failures_.WithLabels({"request"}).Increment();
    return BadRequest(args.status().message());
  }
  std::string error = BindPod(*args);
  return Ok(EncodeBindingResult(error));
}

std::string ExtenderService::BindPod(const BindingArgs& args) {
  const std::string who = args.pod_namespace + "/" + args.pod_name;
  auto pod =
      client_->Get(kube::Resource::Pods(), args.pod_namespace, args.pod_name);
  if (!pod.ok()) {
    bind_failures_.WithLabels({"pod"}).Increment();
    return "cannot read pod " + who + ": " + pod.status().message();
  }
  PodUsage usage = PodIdentity(*pod);
  if (!args.pod_uid.empty() && usage.uid != args.pod_uid) {
    bind_failures_.WithLabels({"pod"}).Increment();
    return "pod " + who + " has uid " + usage.uid + ", not " + args.pod_uid +
           " (it was recreated)";
  }
  auto request = contract::ComputePodRequest(*pod);
  if (!request.ok()) {
    bind_failures_.WithLabels({"pod"}).Increment();
    return "pod " + who + ": " + request.status().message();
  }
  if (!request->Wants()) {
    // Not ours to place: bind as kube-scheduler would.
    Status bound = client_->CreateBinding(args.pod_namespace, args.pod_name,
                                          usage.uid, args.node, {});
    if (!bound.ok()) {
      bind_failures_.WithLabels({"binding"}).Increment();
      return bound.message();
    }
    return "";
  }

  // Choose and reserve atomically with respect to other binds.
  usage.node = args.node;
  std::string refusal;
  uint64_t card_total = 0;
  std::string unit_text;
  cache_->WithExclusive([&](CardCache::Locked& locked) {
    const PodUsage* existing = locked.Pod(usage.uid);
    const CachedNode* node = locked.Node(args.node);
    if (existing != nullptr && existing->node == args.node && node) {
      // A retried bind: keep the cards already reserved.
      usage.cards = existing->cards;
    } else {
      NodeVerdict verdict = Judge(node, *request, policy_);
      if (!verdict.fits) {
        refusal = verdict.reason;
        return;
      }
      usage.cards = verdict.placement.cards;
    }
    usage.whole = request->cards > 0;
    usage.units = usage.whole ? 0 : request->memory_units;
    for (const CardUsage& card : node->cards) {
      if (card.index == usage.cards.front()) card_total = card.total_units;
    }
    unit_text = node->layout.unit_text;
    locked.Assume(usage);
  });
  if (!refusal.empty()) {
    bind_failures_.WithLabels({"placement"}).Increment();
    return "node " + args.node + ": " + refusal;
  }

  auto now = clock_->Now().time_since_epoch();
  contract::CardAssignment assignment = BuildAssignment(
      *request, usage.cards, card_total,
      std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
  nlohmann::json patch;
  for (const auto& [key, value] : contract::EncodeAssignment(assignment)) {
    patch["metadata"]["annotations"][key] = value;
  }
  patch["metadata"]["uid"] = usage.uid;  // Precondition: same incarnation.
  auto patched =
      client_->Patch(kube::Resource::Pods(), args.pod_namespace, args.pod_name,
                     kube::PatchType::kMerge, patch, "");
  if (!patched.ok()) {
    cache_->Forget(usage.uid);
    bind_failures_.WithLabels({"annotate"}).Increment();
    return "cannot annotate pod " + who + ": " + patched.status().message();
  }
  Status bound = client_->CreateBinding(args.pod_namespace, args.pod_name,
                                        usage.uid, args.node, {});
  if (!bound.ok() && bound.http_code() == 409) {
    // A retry of a bind that succeeded (its reply was lost): the pod is
    // already where we put it.
    auto now_pod =
        client_->Get(kube::Resource::Pods(), args.pod_namespace, args.pod_name);
    if (now_pod.ok() && PodIdentity(*now_pod).node == args.node) {
      bound = OkStatus();
    }
  }
  if (!bound.ok()) {
    Undo(args, usage.uid, bound.message());
    bind_failures_.WithLabels({"binding"}).Increment();
    return "cannot bind pod " + who + " to " + args.node + ": " +
           bound.message();
  }
  std::string message =
      usage.whole
          ? "Assigned whole GCU card(s) " + JoinCards(usage.cards) +
                " on node " + args.node
          : "Assigned GCU card " + JoinCards(usage.cards) + " on node " +
                args.node + ": " + std::to_string(usage.units) + " of " +
                std::to_string(card_total) + " units (unit " + unit_text +
                " GiB)";
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
  return "";
}

void ExtenderService::Undo(const BindingArgs& args, const std::string& uid,
                           std::string_view why) {
  const std::string who = args.pod_namespace + "/" + args.pod_name;
  spdlog::warn("pod {}: binding to {} failed ({}); removing its assignment",
               who, args.node, why);
  nlohmann::json patch;
  for (std::string_view key :
       {contract::kPodDeviceId, contract::kPodDeviceMemory,
        contract::kPodMemoryRequest, contract::kPodAssignTime,
        contract::kPodAssigned, contract::kPodContainerDevices}) {
    patch["metadata"]["annotations"][std::string(key)] = nullptr;
  }
  auto undone =
      client_->Patch(kube::Resource::Pods(), args.pod_namespace, args.pod_name,
                     kube::PatchType::kMerge, patch, "");
  if (!undone.ok() && undone.status().http_code() != 404) {
    spdlog::error("pod {}: cannot remove its assignment annotations: {}", who,
                  undone.status().message());
  }
  cache_->Forget(uid);
}

}  // namespace gcushare::extender
