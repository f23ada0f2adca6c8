#include "tests/peers/dra_scheduler/dra_scheduler.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "kube/event.h"
#include "kube/json_fields.h"
#include "kube/resource.h"
#include "tests/peers/dra_scheduler/allocator.h"
#include "tests/peers/dra_scheduler/claim_factory.h"
#include "tests/peers/dra_scheduler/claim_status.h"
#include "tests/peers/dra_scheduler/device_pools.h"
#include "tests/peers/dra_scheduler/fit_message.h"

namespace gcushare::dra_scheduler {
namespace {

using nlohmann::json;

std::string Key(const json& object) {
  return kube::NamespaceOf(object) + "/" + kube::NameOf(object);
}

std::string Uid(const json& object) {
  return kube::StringAt(object, {"metadata", "uid"});
}

bool Finished(const json& pod) {
  const std::string phase = kube::StringAt(pod, {"status", "phase"});
  return phase == "Succeeded" || phase == "Failed";
}

int64_t Priority(const json& pod) {
  const json* priority = kube::FindPath(pod, {"spec", "priority"});
  return priority != nullptr && priority->is_number_integer()
             ? priority->get<int64_t>()
             : 0;
}

// The resourceVersion as a number (0 when it is not one).
uint64_t ResourceVersion(const json& object) {
  const std::string rv = kube::ResourceVersionOf(object);
  if (rv.empty() || rv.size() > 19 ||
      rv.find_first_not_of("0123456789") != std::string::npos) {
    return 0;
  }
  return std::stoull(rv);
}

bool IsAllocated(const json& claim) {
  const json* allocation = kube::FindPath(claim, {"status", "allocation"});
  return allocation != nullptr && !allocation->is_null();
}

json* FindClaim(std::vector<json>& claims, const std::string& ns,
                const std::string& name) {
  for (json& claim : claims) {
    if (kube::NamespaceOf(claim) == ns && kube::NameOf(claim) == name) {
      return &claim;
    }
  }
  return nullptr;
}

void Replace(std::vector<json>& objects, const json& object) {
  for (json& existing : objects) {
    if (Key(existing) == Key(object)) {
      existing = object;
      return;
    }
  }
  objects.push_back(object);
}

}  // namespace

DraScheduler::DraScheduler(kube::KubeClient* client, ShareIdSource* share_ids,
                           base::Clock* clock, DraSchedulerOptions options)
    : client_(client),
      share_ids_(share_ids),
      clock_(clock),
      options_(std::move(options)) {}

StatusOr<DraScheduler::Snapshot> DraScheduler::ListAll() {
  Snapshot snapshot;
  const std::pair<kube::Resource, std::vector<json>*> lists[] = {
      {kube::Resource::Nodes(), &snapshot.nodes},
      {kube::Resource::Pods(), &snapshot.pods},
      {kube::Resource::ResourceSlices(), &snapshot.slices},
      {kube::Resource::DeviceClasses(), &snapshot.classes},
      {kube::Resource::ResourceClaims(), &snapshot.claims},
  };
  for (const auto& [resource, out] : lists) {
    GCUSHARE_ASSIGN_OR_RETURN(kube::ObjectList list,
                              client_->List(resource, "", {}));
    *out = std::move(list.items);
  }
  std::sort(snapshot.nodes.begin(), snapshot.nodes.end(),
            [](const json& a, const json& b) {
              return kube::NameOf(a) < kube::NameOf(b);
            });
  return snapshot;
}

StatusOr<ReleaseSummary> DraScheduler::ReleaseClaims() {
  GCUSHARE_ASSIGN_OR_RETURN(Snapshot snapshot, ListAll());
  return Release(snapshot);
}

StatusOr<ReleaseSummary> DraScheduler::Release(Snapshot& snapshot) {
  std::set<std::string> live;
  for (const json& pod : snapshot.pods) {
    if (!Finished(pod)) live.insert(Uid(pod));
  }
  ReleaseSummary summary;
  std::vector<json> kept;
  for (const json& claim : snapshot.claims) {
    GCUSHARE_ASSIGN_OR_RETURN(ReleaseAction action,
                              ReleaseClaim(client_, claim, live));
    switch (action) {
      case ReleaseAction::kNone:
        kept.push_back(claim);
        break;
      case ReleaseAction::kUnreserved:
        ++summary.unreserved;
        break;
      case ReleaseAction::kDeallocated:
        ++summary.deallocated;
        break;
      case ReleaseAction::kDeleted:
        ++summary.deleted;
        break;
    }
  }
  if (summary.unreserved + summary.deallocated + summary.deleted > 0) {
    // Read the claims back as they are now.
    GCUSHARE_ASSIGN_OR_RETURN(
        kube::ObjectList list,
        client_->List(kube::Resource::ResourceClaims(), "", {}));
    snapshot.claims = std::move(list.items);
  }
  return summary;
}

StatusOr<std::vector<PodOutcome>> DraScheduler::SchedulePending() {
  GCUSHARE_ASSIGN_OR_RETURN(Snapshot snapshot, ListAll());
  GCUSHARE_RETURN_IF_ERROR(Release(snapshot).status());
  std::vector<json> pending;
  for (const json& pod : snapshot.pods) {
    std::string scheduler = kube::StringAt(pod, {"spec", "schedulerName"});
    if (scheduler.empty()) scheduler = "default-scheduler";
    if (scheduler != options_.scheduler_name) continue;
    if (!kube::StringAt(pod, {"spec", "nodeName"}).empty()) continue;
    if (kube::FindPath(pod, {"metadata", "deletionTimestamp"}) != nullptr) {
      continue;
    }
    if (Finished(pod)) continue;
    pending.push_back(pod);
  }
  // The scheduling queue's order (PrioritySort): higher spec.priority
  // first, then the time the pod entered the queue, which creationTimestamp
  // (whole seconds) and then the resourceVersion (creation or last change)
  // stand for.
  std::stable_sort(pending.begin(), pending.end(),
                   [](const json& a, const json& b) {
                     const int64_t pa = Priority(a);
                     const int64_t pb = Priority(b);
                     if (pa != pb) return pa > pb;
                     const std::string ta =
                         kube::StringAt(a, {"metadata", "creationTimestamp"});
                     const std::string tb =
                         kube::StringAt(b, {"metadata", "creationTimestamp"});
                     if (ta != tb) return ta < tb;
                     const uint64_t ra = ResourceVersion(a);
                     const uint64_t rb = ResourceVersion(b);
                     return ra != rb ? ra < rb : Key(a) < Key(b);
                   });
  std::vector<PodOutcome> outcomes;
  outcomes.reserve(pending.size());
  for (json& pod : pending) {
    outcomes.push_back(ScheduleOne(std::move(pod), snapshot));
  }
  return outcomes;
}

// A pod's claims, resolved for one scheduling attempt.
struct DraScheduler::PodClaims {
  std::vector<std::string> names;  // Of existing claims, in pod order.
  std::optional<ExtendedResourceClaim> extended;  // Not created yet.
};

// A node for the pod, and what binding there takes.
struct DraScheduler::Placement {
  std::vector<json> to_allocate;
  std::vector<std::string> to_allocate_names;  // "" for the extended claim.
  std::vector<json> allocated;  // Copies: PreBind changes snapshot.claims.
  std::string node;
  std::vector<json> allocations;  // Of to_allocate, on `node`.
};

PodOutcome DraScheduler::ScheduleOne(json pod, Snapshot& snapshot) {
  PodOutcome outcome;
  outcome.pod = Key(pod);
  const std::string ns = kube::NamespaceOf(pod);
  auto fail = [&](const Failure& failure) {
    outcome.reason = failure.reason;
    outcome.message = failure.message;
    RecordFailure(pod, outcome);
    return outcome;
  };
  if (snapshot.nodes.empty()) {
    return fail({"SchedulerError", "no nodes available to schedule pods"});
  }

  // 1. The claims (the controller creates template claims first).
  PodClaims claims;
  if (auto failure = ResolveClaims(pod, snapshot, &claims)) {
    return fail(*failure);
  }

  // 2. A node where every claim is available or can be allocated.
  Placement placement;
  if (auto failure = ChooseNode(pod, claims, snapshot, &placement)) {
    return fail(*failure);
  }

  // 3. PreBind: create the extended-resource claim, write the claims, bind.
  if (auto failure = PreBind(pod, claims, snapshot, &placement)) {
    return fail(*failure);
  }
  const std::string& chosen = placement.node;
  Status bound =
      client_->CreateBinding(ns, kube::NameOf(pod), Uid(pod), chosen, {});
  if (!bound.ok()) {
    return fail({"SchedulerError", std::string(bound.message())});
  }
  pod["spec"]["nodeName"] = chosen;
  Replace(snapshot.pods, pod);
  spdlog::info("Successfully bound pod to node: pod={} node={}", outcome.pod,
               chosen);
  outcome.bound = true;
  outcome.node = chosen;
  RecordEvent(pod, "Normal", "Scheduled", "Binding",
              "Successfully assigned " + outcome.pod + " to " + chosen);
  return outcome;
}

std::optional<DraScheduler::Failure> DraScheduler::ResolveClaims(
    json& pod, Snapshot& snapshot, PodClaims* claims) {
  // A copy: `pod` is replaced by the patched pod inside the loop.
  const json* found = kube::FindPath(pod, {"spec", "resourceClaims"});
  const json entries = found != nullptr ? *found : json();
  if (entries.is_array()) {
    for (const json& entry : entries) {
      std::string claim_name;
      if (auto failure = ClaimOfEntry(entry, pod, snapshot, &claim_name)) {
        return failure;
      }
      claims->names.push_back(claim_name);
    }
  }
  std::string extended_name;
  for (const json& claim : snapshot.claims) {
    if (IsExtendedResourceClaimOf(claim, pod)) {
      extended_name = kube::NameOf(claim);
    }
  }
  if (!extended_name.empty()) {
    claims->names.push_back(extended_name);
  } else {
    auto extended = BuildExtendedResourceClaim(pod, snapshot.classes);
    if (!extended.ok()) {
      return Failure{"SchedulerError", extended.status().message()};
    }
    claims->extended = std::move(*extended);
  }
  return std::nullopt;
}

std::optional<DraScheduler::Failure> DraScheduler::ClaimOfEntry(
    const json& entry, json& pod, Snapshot& snapshot, std::string* name) {
  const std::string ns = kube::NamespaceOf(pod);
  const int num_nodes = static_cast<int>(snapshot.nodes.size());
  const std::string entry_name = kube::StringAt(entry, {"name"});
  std::string claim_name = kube::StringAt(entry, {"resourceClaimName"});
  const std::string template_name =
      kube::StringAt(entry, {"resourceClaimTemplateName"});
  if (claim_name.empty() && template_name.empty()) {
    return Failure{"SchedulerError",
                   "pod " + Key(pod) + ": resource claim " + entry_name +
                       " names neither a claim nor a template"};
  }
  if (claim_name.empty()) {
    const json* statuses =
        kube::FindPath(pod, {"status", "resourceClaimStatuses"});
    if (statuses != nullptr && statuses->is_array()) {
      for (const json& status : *statuses) {
        if (kube::StringAt(status, {"name"}) == entry_name) {
          claim_name = kube::StringAt(status, {"resourceClaimName"});
        }
      }
    }
  }
  if (claim_name.empty()) {
    // The resourceclaim controller: an orphan it made before, or new.
    for (const json& claim : snapshot.claims) {
      if (IsTemplateClaimOf(claim, pod, entry_name)) {
        claim_name = kube::NameOf(claim);
      }
    }
    if (claim_name.empty()) {
      if (auto failure = CreateTemplateClaim(pod, entry_name, template_name,
                                             snapshot, &claim_name)) {
        return failure;
      }
    }
    if (auto failure =
            RecordClaimStatus(entry_name, claim_name, pod, snapshot)) {
      return failure;
    }
  }
  const json* claim = FindClaim(snapshot.claims, ns, claim_name);
  if (claim == nullptr) {
    return Failure{
        "Unschedulable",
        PreFilterFailureMessage(num_nodes, "resourceclaim.resource.k8s.io \"" +
                                               claim_name + "\" not found")};
  }
  if (kube::FindPath(*claim, {"metadata", "deletionTimestamp"}) != nullptr) {
    return Failure{
        "Unschedulable",
        PreFilterFailureMessage(num_nodes, "resourceclaim \"" + claim_name +
                                               "\" is being "
                                               "deleted")};
  }
  *name = claim_name;
  return std::nullopt;
}

std::optional<DraScheduler::Failure> DraScheduler::CreateTemplateClaim(
    const json& pod, const std::string& entry_name,
    const std::string& template_name, Snapshot& snapshot, std::string* name) {
  const std::string ns = kube::NamespaceOf(pod);
  const int num_nodes = static_cast<int>(snapshot.nodes.size());
  StatusOr<json> claim_template =
      client_->Get(kube::Resource::ResourceClaimTemplates(), ns, template_name);
  if (!claim_template.ok()) {
    return Failure{
        "Unschedulable",
        PreFilterFailureMessage(
            num_nodes, "resource claim template \"" + template_name +
                           "\": " + claim_template.status().message())};
  }
  StatusOr<json> created =
      client_->Create(kube::Resource::ResourceClaims(), ns,
                      ClaimFromTemplate(pod, entry_name, *claim_template));
  if (!created.ok()) {
    return Failure{"SchedulerError", "create ResourceClaim for pod " +
                                         Key(pod) + ": " +
                                         created.status().message()};
  }
  snapshot.claims.push_back(*created);
  *name = kube::NameOf(*created);
  return std::nullopt;
}

std::optional<DraScheduler::Failure> DraScheduler::RecordClaimStatus(
    const std::string& entry_name, const std::string& claim_name, json& pod,
    Snapshot& snapshot) {
  const json* recorded =
      kube::FindPath(pod, {"status", "resourceClaimStatuses"});
  json statuses =
      recorded != nullptr && recorded->is_array() ? *recorded : json::array();
  statuses.push_back({{"name", entry_name}, {"resourceClaimName", claim_name}});
  StatusOr<json> patched = client_->Patch(
      kube::Resource::Pods(), kube::NamespaceOf(pod), kube::NameOf(pod),
      kube::PatchType::kMerge,
      {{"status", {{"resourceClaimStatuses", statuses}}}}, "status");
  if (!patched.ok()) {
    return Failure{"SchedulerError", "update status of pod " + Key(pod) + ": " +
                                         patched.status().message()};
  }
  pod = *patched;
  Replace(snapshot.pods, pod);
  return std::nullopt;
}

std::optional<DraScheduler::Failure> DraScheduler::ChooseNode(
    const json& pod, const PodClaims& claims, Snapshot& snapshot,
    Placement* placement) {
  const std::string ns = kube::NamespaceOf(pod);
  const int num_nodes = static_cast<int>(snapshot.nodes.size());
  std::vector<json>& to_allocate = placement->to_allocate;
  std::vector<json>& allocated = placement->allocated;
  for (const std::string& name : claims.names) {
    const json* claim = FindClaim(snapshot.claims, ns, name);
    if (IsAllocated(*claim)) {
      allocated.push_back(*claim);
    } else {
      to_allocate.push_back(*claim);
      placement->to_allocate_names.push_back(name);
    }
  }
  if (claims.extended.has_value()) {
    to_allocate.push_back(claims.extended->claim);
    placement->to_allocate_names.emplace_back("");
  }
  StatusOr<AllocatedDevices> in_use = GatherAllocatedDevices(snapshot.claims);
  if (!in_use.ok()) return Failure{"SchedulerError", in_use.status().message()};
  Allocator allocator(snapshot.slices, snapshot.classes, *in_use, share_ids_);
  std::map<std::string, int> reasons;
  for (const json& node : snapshot.nodes) {
    bool available = true;
    for (const json& claim : allocated) {
      const json* selector =
          kube::FindPath(claim, {"status", "allocation", "nodeSelector"});
      if (selector != nullptr && selector->is_object() &&
          !NodeSelectorMatches(*selector, node)) {
        available = false;
      }
    }
    if (!available) {
      ++reasons[kNotAvailableOnNode];
      continue;
    }
    if (to_allocate.empty()) {
      placement->node = kube::NameOf(node);
      return std::nullopt;
    }
    StatusOr<AllocationOutcome> result = allocator.Allocate(node, to_allocate);
    if (!result.ok()) {
      return Failure{"SchedulerError",
                     "running \"DynamicResources\" filter plugin: " +
                         result.status().message()};
    }
    if (!result->fits) {
      ++reasons[kCannotAllocate];
      continue;
    }
    placement->node = kube::NameOf(node);
    placement->allocations = std::move(result->allocations);
    return std::nullopt;
  }
  return Failure{"Unschedulable", FilterFailureMessage(num_nodes, reasons)};
}

std::optional<DraScheduler::Failure> DraScheduler::PreBind(
    json& pod, const PodClaims& claims, Snapshot& snapshot,
    Placement* placement) {
  const std::string ns = kube::NamespaceOf(pod);
  auto prebind_error = [](const Status& status) {
    return Failure{
        "SchedulerError",
        "running PreBind plugin \"DynamicResources\": " + status.message()};
  };
  for (size_t i = 0; i < placement->to_allocate.size(); ++i) {
    json claim = placement->to_allocate[i];
    if (placement->to_allocate_names[i].empty()) {
      StatusOr<json> created =
          client_->Create(kube::Resource::ResourceClaims(), ns, claim);
      if (!created.ok()) return prebind_error(created.status());
      claim = *created;
      json status = {{"resourceClaimName", kube::NameOf(claim)},
                     {"requestMappings", claims.extended->request_mappings}};
      StatusOr<json> patched = client_->Patch(
          kube::Resource::Pods(), ns, kube::NameOf(pod),
          kube::PatchType::kMerge,
          {{"status", {{"extendedResourceClaimStatus", status}}}}, "status");
      if (!patched.ok()) return prebind_error(patched.status());
      pod = *patched;
      Replace(snapshot.pods, pod);
    }
    StatusOr<json> reserved =
        ReserveClaim(client_, claim, &placement->allocations[i], pod);
    if (!reserved.ok()) return prebind_error(reserved.status());
    Replace(snapshot.claims, *reserved);
  }
  for (const json& claim : placement->allocated) {
    StatusOr<json> reserved = ReserveClaim(client_, claim, nullptr, pod);
    if (!reserved.ok()) return prebind_error(reserved.status());
    Replace(snapshot.claims, *reserved);
  }
  return std::nullopt;
}

void DraScheduler::RecordEvent(const json& pod, const std::string& type,
                               const std::string& reason,
                               const std::string& action,
                               const std::string& message) {
  kube::ObjectReference involved;
  involved.kind = "Pod";
  involved.namespace_name = kube::NamespaceOf(pod);
  involved.name = kube::NameOf(pod);
  involved.uid = Uid(pod);
  kube::EventFields fields;
  fields.type = type;
  fields.reason = reason;
  // The events.k8s.io note limit.
  constexpr size_t kMaxMessage = 1024;
  fields.message = message.size() > kMaxMessage
                       ? message.substr(0, kMaxMessage - 3) + "..."
                       : message;
  fields.reporting_component = options_.scheduler_name;
  fields.reporting_instance =
      options_.scheduler_name + "-" + options_.host_name;
  const auto now = clock_->Now();
  const uint64_t unique =
      static_cast<uint64_t>(now.time_since_epoch().count()) ^
      (++event_counter_ << 48);
  json event =
      kube::BuildEvent(involved.namespace_name, involved, fields, now, unique);
  event["action"] = action;
  auto created =
      client_->Create(kube::Resource::Events(), involved.namespace_name, event);
  if (!created.ok()) {
    spdlog::warn("Could not record event {} for pod {}: {}", reason, Key(pod),
                 created.status().message());
  }
}

void DraScheduler::RecordFailure(const json& pod, PodOutcome& outcome) {
  spdlog::info("Unable to schedule pod: pod={} reason={} err=\"{}\"",
               outcome.pod, outcome.reason, outcome.message);
  RecordEvent(pod, "Warning", "FailedScheduling", "Scheduling",
              outcome.message);
  // podutil.UpdatePodCondition: a new transition time only on a change, no
  // write when nothing changes.
  std::string transition = kube::FormatRfc3339(clock_->Now());
  const json* conditions = kube::FindPath(pod, {"status", "conditions"});
  if (conditions != nullptr && conditions->is_array()) {
    for (const json& condition : *conditions) {
      if (kube::StringAt(condition, {"type"}) != "PodScheduled") continue;
      if (kube::StringAt(condition, {"status"}) == "False") {
        if (kube::StringAt(condition, {"reason"}) == outcome.reason &&
            kube::StringAt(condition, {"message"}) == outcome.message) {
          return;
        }
        const std::string old =
            kube::StringAt(condition, {"lastTransitionTime"});
        if (!old.empty()) transition = old;
      }
    }
  }
  json condition = {
      {"type", "PodScheduled"},   {"status", "False"},
      {"lastProbeTime", nullptr}, {"lastTransitionTime", transition},
      {"reason", outcome.reason}, {"message", outcome.message}};
  StatusOr<json> patched = client_->Patch(
      kube::Resource::Pods(), kube::NamespaceOf(pod), kube::NameOf(pod),
      kube::PatchType::kStrategicMerge,
      {{"status", {{"conditions", json::array({condition})}}}}, "status");
  if (!patched.ok()) {
    spdlog::warn("Could not update the PodScheduled condition of {}: {}",
                 outcome.pod, patched.status().message());
  }
}

}  // namespace gcushare::dra_scheduler
