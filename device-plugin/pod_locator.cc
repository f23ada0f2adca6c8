#include "device-plugin/pod_locator.h"

#include <fmt/format.h>

#include <optional>
#include <tuple>

#include "contract/names.h"
#include "kube/json_fields.h"

namespace gcushare::deviceplugin {
namespace {

constexpr size_t kMaxNamedPods = 8;

// The first container that asks for `units` of gcu-memory and is not handed
// out yet (kubelet goes in spec order, so the earlier ones are normally
// done; not insisting on it keeps a pod matchable after a plugin restart
// forgot what was handed out). Null when none; `next` is then the first
// container still waiting, for the message.
const contract::ContainerRequest* FindContainer(
    const contract::PodRequest& request, const std::set<std::string>* done,
    uint64_t units, const contract::ContainerRequest** next) {
  *next = nullptr;
  for (const contract::ContainerRequest& c : request.containers) {
    if (c.memory_units == 0) continue;
    if (done != nullptr && done->count(c.name) > 0) continue;
    if (*next == nullptr) *next = &c;
    if (c.memory_units == units) return &c;
  }
  return nullptr;
}

bool IsLast(const contract::PodRequest& request,
            const std::set<std::string>* done,
            const contract::ContainerRequest& current) {
  for (const contract::ContainerRequest& c : request.containers) {
    if (c.memory_units == 0 || c.name == current.name) continue;
    if (done == nullptr || done->count(c.name) == 0) return false;
  }
  return true;
}

// One pod's standing towards a query.
struct Verdict {
  enum Kind {
    kIgnored,     // Not ours to mention: another node, or no GCU memory.
    kPassedOver,  // Considered and refused; `passed_over` says why.
    kMatch,       // A candidate; `match` holds it.
  };
  Kind kind = kIgnored;
  std::string passed_over;  // "namespace/name (reason)".
  PodMatch match;
};

// Judges one pod against `query` (see the header for what makes a
// candidate).
Verdict Judge(const nlohmann::json& pod, const LocateQuery& query,
              const HandedOut& handed_out) {
  Verdict verdict;
  const std::string key = kube::NamespaceOf(pod) + "/" + kube::NameOf(pod);
  if (kube::StringAt(pod, {"spec", "nodeName"}) != query.node) return verdict;
  const nlohmann::json* annotations =
      kube::FindPath(pod, {"metadata", "annotations"});
  StatusOr<std::optional<contract::CardAssignment>> assignment =
      contract::DecodeAssignment(annotations == nullptr ? nlohmann::json()
                                                        : *annotations);
  StatusOr<contract::PodRequest> request = contract::ComputePodRequest(pod);
  // Pods that ask for no GCU memory are not ours to mention.
  if (request.ok() && request->memory_units == 0) return verdict;
  auto pass = [&](const std::string& why) {
    verdict.kind = Verdict::kPassedOver;
    verdict.passed_over = key + " (" + why + ")";
    return verdict;
  };
  if (!request.ok()) {
    return pass("unreadable request: " + request.status().message());
  }
  if (!assignment.ok()) {
    return pass("bad annotation: " + assignment.status().message());
  }
  if (!assignment->has_value()) {
    return pass("no " + std::string(contract::kPodDeviceId) +
                " annotation: not bound by the extender yet");
  }
  const contract::CardAssignment& a = **assignment;
  const std::string phase = kube::StringAt(pod, {"status", "phase"});
  if (phase != "Pending") {
    return pass("phase " + (phase.empty() ? std::string("unknown") : phase));
  }
  if (a.assigned) return pass(std::string(contract::kPodAssigned) + "=true");
  const std::string uid = kube::StringAt(pod, {"metadata", "uid"});
  auto done_it = handed_out.find(uid);
  const std::set<std::string>* done =
      done_it == handed_out.end() ? nullptr : &done_it->second;
  const contract::ContainerRequest* waiting = nullptr;
  const contract::ContainerRequest* next =
      FindContainer(*request, done, query.units, &waiting);
  if (waiting == nullptr) return pass("every container already handed out");
  if (next == nullptr) {
    return pass(fmt::format("container {} requests {}", waiting->name,
                            waiting->memory_units));
  }
  StatusOr<std::vector<uint32_t>> cards =
      contract::CardsForContainer(a, next->name);
  if (!cards.ok() || cards->empty()) {
    return pass("no card assigned to container " + next->name);
  }
  verdict.kind = Verdict::kMatch;
  PodMatch& match = verdict.match;
  match.namespace_name = kube::NamespaceOf(pod);
  match.name = kube::NameOf(pod);
  match.uid = uid;
  match.assignment = a;
  match.container = *next;
  match.cards = *cards;
  match.last_container = IsLast(*request, done, *next);
  return verdict;
}

// The NotFound message when no pod matched: the query, then how many pods
// were considered and the first few passed over, with why.
std::string NoMatchMessage(const LocateQuery& query, size_t considered,
                           const std::vector<std::string>& passed_over) {
  std::string message = fmt::format(
      "no pod on node {} waits for {} unit(s) of {} (Pending, {}=false, next "
      "container requesting {}): ",
      query.node, query.units, contract::kResourceMemory,
      contract::kPodAssigned, query.units);
  if (considered == 0) {
    message += "no pod on this node asks for " +
               std::string(contract::kResourceMemory);
  } else {
    message += fmt::format("considered {} pod(s): ", considered);
    for (size_t i = 0; i < passed_over.size() && i < kMaxNamedPods; ++i) {
      if (i > 0) message += ", ";
      message += passed_over[i];
    }
    if (passed_over.size() > kMaxNamedPods) {
      message +=
          fmt::format(" and {} more", passed_over.size() - kMaxNamedPods);
    }
  }
  return message;
}

}  // namespace

StatusOr<PodMatch> LocatePod(const std::vector<PodPtr>& pods,
                             const LocateQuery& query,
                             const HandedOut& handed_out) {
  std::optional<PodMatch> best;
  std::vector<std::string> passed_over;
  size_t considered = 0;
  for (const PodPtr& pod_ptr : pods) {
    if (pod_ptr == nullptr) continue;
    Verdict verdict = Judge(*pod_ptr, query, handed_out);
    if (verdict.kind == Verdict::kIgnored) continue;
    ++considered;
    if (verdict.kind == Verdict::kPassedOver) {
      passed_over.push_back(std::move(verdict.passed_over));
      continue;
    }
    PodMatch& match = verdict.match;
    if (!best ||
        std::tie(match.assignment.assign_time_ns, match.namespace_name,
                 match.name) < std::tie(best->assignment.assign_time_ns,
                                        best->namespace_name, best->name)) {
      best = std::move(match);
    }
  }
  if (best) return std::move(*best);
  return NotFoundError(NoMatchMessage(query, considered, passed_over));
}

}  // namespace gcushare::deviceplugin
