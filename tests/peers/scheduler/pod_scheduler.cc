#include "tests/peers/scheduler/pod_scheduler.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <set>
#include <utility>

#include "kube/event.h"
#include "kube/resource.h"
#include "tests/peers/scheduler/node_score.h"
#include "tests/peers/scheduler/pending_pods.h"

namespace gcushare::scheduler {
namespace {

// framework.MaxNodeScore / extenderv1.MaxExtenderPriority.
constexpr int64_t kExtenderScoreScale = 100 / 10;

// Event notes longer than this are cut (events.k8s.io note limit).
constexpr size_t kMaxEventMessage = 1024;

const nlohmann::json& Child(const nlohmann::json& object, const char* key) {
  static const nlohmann::json* const kNull = new nlohmann::json();
  if (!object.is_object()) return *kNull;
  auto it = object.find(key);
  return it == object.end() ? *kNull : *it;
}

std::string StringOf(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : std::string();
}

std::string NameOf(const nlohmann::json& object) {
  return StringOf(Child(Child(object, "metadata"), "name"));
}

std::string NamespaceOf(const nlohmann::json& object) {
  return StringOf(Child(Child(object, "metadata"), "namespace"));
}

std::string UidOf(const nlohmann::json& object) {
  return StringOf(Child(Child(object, "metadata"), "uid"));
}

std::string SchedulerNameOf(const nlohmann::json& pod) {
  std::string name = StringOf(Child(Child(pod, "spec"), "schedulerName"));
  return name.empty() ? std::string(kDefaultSchedulerName) : name;
}

void AddFailure(std::map<std::string, NodeStatus>& statuses,
                const std::string& node, FilterCode code,
                const std::string& reason) {
  auto it = statuses.find(node);
  if (it == statuses.end()) {
    statuses[node] = NodeStatus{code, {reason}};
    return;
  }
  it->second.reasons.push_back(reason);
  if (code == FilterCode::kUnschedulableAndUnresolvable) it->second.code = code;
}

// The pods `on_node` lists on `node` (none when it lists none).
const std::vector<const nlohmann::json*>& PodsOn(
    const std::map<std::string, std::vector<const nlohmann::json*>>& on_node,
    const std::string& node) {
  static const auto* const kNone = new std::vector<const nlohmann::json*>();
  auto it = on_node.find(node);
  return it == on_node.end() ? *kNone : it->second;
}

}  // namespace

PodScheduler::PodScheduler(kube::KubeClient* client,
                           std::vector<Extender*> extenders,
                           SchedulerOptions options)
    : client_(client),
      extenders_(std::move(extenders)),
      options_(std::move(options)) {}

void PodScheduler::ForgetSettledAssumptions(const Snapshot& snapshot) {
  std::map<std::string, const nlohmann::json*> by_uid;
  for (const ObjectPtr& pod : snapshot.pods) by_uid[UidOf(*pod)] = pod.get();
  for (auto it = assumed_.begin(); it != assumed_.end();) {
    auto found = by_uid.find(it->first);
    const bool gone = found == by_uid.end();
    const bool bound =
        !gone &&
        !StringOf(Child(Child(*found->second, "spec"), "nodeName")).empty();
    it = gone || bound ? assumed_.erase(it) : std::next(it);
  }
}

PodScheduler::PodsByNode PodScheduler::PodsOnNodes(
    const nlohmann::json& pod, const Snapshot& snapshot) const {
  const std::string uid = UidOf(pod);
  PodsByNode on_node;
  for (const ObjectPtr& other : snapshot.pods) {
    const std::string node = StringOf(Child(Child(*other, "spec"), "nodeName"));
    if (!node.empty() && UidOf(*other) != uid) {
      on_node[node].push_back(other.get());
    }
  }
  for (const auto& [assumed_uid, assumed] : assumed_) {
    if (assumed_uid != uid) on_node[assumed.node].push_back(assumed.pod.get());
  }
  return on_node;
}

std::vector<ObjectPtr> PodScheduler::RunFilters(
    const nlohmann::json& pod, const std::vector<ObjectPtr>& nodes,
    const PodsByNode& on_node, Diagnosis* diagnosis) const {
  FilterOptions filter_options;
  filter_options.style = options_.style;
  filter_options.ignored_resource = [this](std::string_view resource) {
    for (const Extender* extender : extenders_) {
      if (extender->config().IgnoresInScheduler(resource)) return true;
    }
    return false;
  };
  std::vector<ObjectPtr> feasible;
  for (const ObjectPtr& node : nodes) {
    const std::string name = NameOf(*node);
    NodeStatus status = FilterNode(
        pod, *node, NodeRequested(PodsOn(on_node, name)), filter_options);
    if (status.ok()) {
      feasible.push_back(node);
    } else {
      diagnosis->statuses[name] = std::move(status);
    }
  }
  return feasible;
}

Status PodScheduler::RunExtenderFilters(const nlohmann::json& pod,
                                        std::vector<ObjectPtr>* feasible,
                                        Diagnosis* diagnosis) {
  for (Extender* extender : extenders_) {
    if (feasible->empty()) break;
    if (!extender->config().IsInterested(pod)) continue;
    auto result = extender->Filter(pod, *feasible);
    if (!result.ok()) {
      if (extender->config().ignorable) {
        spdlog::info(
            "Skipping extender as it returned error and has ignorable flag "
            "set: extender={} err={}",
            extender->config().url_prefix, result.status().message());
        continue;
      }
      return result.status();
    }
    for (const auto& [node, reason] : result->failed_and_unresolvable) {
      AddFailure(diagnosis->statuses, node,
                 FilterCode::kUnschedulableAndUnresolvable, reason);
    }
    for (const auto& [node, reason] : result->failed) {
      if (result->failed_and_unresolvable.count(node) != 0) continue;
      AddFailure(diagnosis->statuses, node, FilterCode::kUnschedulable, reason);
    }
    *feasible = std::move(result->nodes);
  }
  return OkStatus();
}

std::string PodScheduler::BestNode(const nlohmann::json& pod,
                                   const std::vector<ObjectPtr>& feasible,
                                   const PodsByNode& on_node) {
  std::map<std::string, int64_t> extender_scores;
  for (Extender* extender : extenders_) {
    if (!extender->config().IsInterested(pod)) continue;
    auto scores = extender->Prioritize(pod, feasible);
    if (!scores.ok()) {
      // kube-scheduler ignores prioritize errors.
      spdlog::info("Prioritize of extender {} failed, ignored: {}",
                   extender->config().url_prefix, scores.status().message());
      continue;
    }
    for (const HostPriority& host : *scores) {
      extender_scores[host.host] += host.score * extender->config().weight;
    }
  }
  const HostResources asked = NonZeroRequests(pod);
  int64_t best = 0;
  std::string best_node;
  for (size_t i = 0; i < feasible.size(); ++i) {
    const std::string name = NameOf(*feasible[i]);
    HostResources requested;
    for (const nlohmann::json* other : PodsOn(on_node, name)) {
      HostResources r = NonZeroRequests(*other);
      requested.cpu_milli += r.cpu_milli;
      requested.memory += r.memory;
    }
    const int64_t total = extender_scores[name] * kExtenderScoreScale +
                          DefaultPluginScore(asked, requested, *feasible[i]);
    if (i == 0 || total > best) {
      best = total;
      best_node = name;
    }
  }
  return best_node;
}

Decision PodScheduler::Decide(const nlohmann::json& pod,
                              const Snapshot& snapshot) {
  ForgetSettledAssumptions(snapshot);
  Decision decision;
  std::vector<ObjectPtr> nodes = snapshot.nodes;
  std::sort(nodes.begin(), nodes.end(),
            [](const ObjectPtr& a, const ObjectPtr& b) {
              return NameOf(*a) < NameOf(*b);
            });
  if (nodes.empty()) {
    decision.kind = Decision::Kind::kError;
    decision.message = "no nodes available to schedule pods";
    return decision;
  }

  // The pods on each node: bound ones, and the ones assumed here.
  const PodsByNode on_node = PodsOnNodes(pod, snapshot);
  Diagnosis diagnosis;
  diagnosis.num_all_nodes = static_cast<int>(nodes.size());
  std::vector<ObjectPtr> feasible = RunFilters(pod, nodes, on_node, &diagnosis);
  Status extenders = RunExtenderFilters(pod, &feasible, &diagnosis);
  if (!extenders.ok()) {
    decision.kind = Decision::Kind::kError;
    decision.message = std::string(extenders.message());
    return decision;
  }

  decision.feasible_nodes = static_cast<int>(feasible.size());
  decision.evaluated_nodes =
      decision.feasible_nodes + static_cast<int>(diagnosis.statuses.size());
  if (feasible.empty()) {
    decision.kind = Decision::Kind::kUnschedulable;
    decision.message = UnschedulableMessage(pod, diagnosis, options_.style);
    return decision;
  }
  decision.kind = Decision::Kind::kFeasible;
  if (feasible.size() == 1) {
    decision.node = NameOf(*feasible[0]);
    return decision;
  }
  decision.node = BestNode(pod, feasible, on_node);
  return decision;
}

Status PodScheduler::Bind(const nlohmann::json& pod, const std::string& node) {
  for (Extender* extender : extenders_) {
    if (extender->config().bind_verb.empty() ||
        !extender->config().IsInterested(pod)) {
      continue;
    }
    return extender->Bind(pod, node);
  }
  Status status = client_->CreateBinding(NamespaceOf(pod), NameOf(pod),
                                         UidOf(pod), node, {});
  if (!status.ok()) {
    spdlog::info("Failed to bind pod {} to {}: {}", PodKey(pod), node,
                 status.message());
  }
  return status;
}

ScheduleResult PodScheduler::ScheduleOne(const nlohmann::json& pod,
                                         const Snapshot& snapshot) {
  const std::string key = PodKey(pod);
  spdlog::info("Attempting to schedule pod: pod={}", key);
  Decision decision = Decide(pod, snapshot);
  ScheduleResult result;
  if (decision.kind == Decision::Kind::kFeasible) {
    Status bound = Bind(pod, decision.node);
    if (bound.ok()) {
      assumed_[UidOf(pod)] =
          Assumed{decision.node, std::make_shared<const nlohmann::json>(pod)};
      spdlog::info(
          "Successfully bound pod to node: pod={} node={} evaluatedNodes={} "
          "feasibleNodes={}",
          key, decision.node, decision.evaluated_nodes,
          decision.feasible_nodes);
      RecordEvent(pod, "Normal", "Scheduled", "Binding",
                  "Successfully assigned " + key + " to " + decision.node);
      result.bound = true;
      result.node = decision.node;
      return result;
    }
    result.reason = "SchedulerError";
    result.message = std::string(bound.message());
  } else if (decision.kind == Decision::Kind::kUnschedulable) {
    spdlog::info("Unable to schedule pod; no fit; waiting: pod={} err=\"{}\"",
                 key, decision.message);
    result.reason = "Unschedulable";
    result.message = decision.message;
  } else {
    spdlog::error("Error scheduling pod; retrying: pod={} err=\"{}\"", key,
                  decision.message);
    result.reason = "SchedulerError";
    result.message = decision.message;
  }
  RecordFailure(pod, result.reason, result.message);
  return result;
}

void PodScheduler::RecordEvent(const nlohmann::json& pod,
                               const std::string& type,
                               const std::string& reason,
                               const std::string& action,
                               const std::string& message) {
  kube::ObjectReference involved;
  involved.kind = "Pod";
  involved.namespace_name = NamespaceOf(pod);
  involved.name = NameOf(pod);
  involved.uid = UidOf(pod);
  kube::EventFields fields;
  fields.type = type;
  fields.reason = reason;
  fields.message = message.size() > kMaxEventMessage
                       ? message.substr(0, kMaxEventMessage - 3) + "..."
                       : message;
  fields.reporting_component = SchedulerNameOf(pod);
  fields.reporting_instance = SchedulerNameOf(pod) + "-" + options_.host_name;
  const auto now = options_.clock->Now();
  const uint64_t unique =
      static_cast<uint64_t>(now.time_since_epoch().count()) ^
      (++event_counter_ << 48);
  nlohmann::json event =
      kube::BuildEvent(involved.namespace_name, involved, fields, now, unique);
  event["action"] = action;
  auto created =
      client_->Create(kube::Resource::Events(), involved.namespace_name, event);
  if (!created.ok()) {
    spdlog::warn("Could not record event {} for pod {}: {}", reason,
                 PodKey(pod), created.status().message());
  }
}

void PodScheduler::RecordFailure(const nlohmann::json& pod,
                                 const std::string& reason,
                                 const std::string& message) {
  RecordEvent(pod, "Warning", "FailedScheduling", "Scheduling", message);

  // podutil.UpdatePodCondition: a new transition time only when the status
  // changes; no write when nothing changes.
  std::string transition = kube::FormatRfc3339(options_.clock->Now());
  const nlohmann::json& conditions = Child(Child(pod, "status"), "conditions");
  if (conditions.is_array()) {
    for (const nlohmann::json& condition : conditions) {
      if (StringOf(Child(condition, "type")) != "PodScheduled") continue;
      if (StringOf(Child(condition, "status")) == "False") {
        if (StringOf(Child(condition, "reason")) == reason &&
            StringOf(Child(condition, "message")) == message) {
          return;
        }
        const std::string old =
            StringOf(Child(condition, "lastTransitionTime"));
        if (!old.empty()) transition = old;
      }
    }
  }
  nlohmann::json condition = {
      {"type", "PodScheduled"},   {"status", "False"},
      {"lastProbeTime", nullptr}, {"lastTransitionTime", transition},
      {"reason", reason},         {"message", message}};
  nlohmann::json patch = {
      {"status", {{"conditions", nlohmann::json::array({condition})}}}};
  auto patched =
      client_->Patch(kube::Resource::Pods(), NamespaceOf(pod), NameOf(pod),
                     kube::PatchType::kStrategicMerge, patch, "status");
  if (!patched.ok()) {
    spdlog::warn("Could not update the PodScheduled condition of {}: {}",
                 PodKey(pod), patched.status().message());
  }
}

}  // namespace gcushare::scheduler
