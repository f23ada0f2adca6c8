#include "dra-driver/slice_publisher.h"

#include <spdlog/spdlog.h>

#include <utility>
#include <vector>

#include "base/guarded_thread.h"
#include "base/mutex.h"
#include "contract/names.h"
#include "kube/resource.h"

namespace gcushare::dra {
namespace {

constexpr int kMaxPlanRounds = 8;

std::string FieldSelector(const std::string& node) {
  return "spec.nodeName=" + node +
         ",spec.driver=" + std::string(contract::kDraDriverName);
}

// A write that lost a race: re-read and plan again.
bool IsRace(const Status& status) {
  return status.http_code() == 409 || status.http_code() == 404;
}

std::string NameOf(const nlohmann::json& object) {
  const auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return "";
  return metadata->value("name", "");
}

std::string UidOf(const nlohmann::json& object) {
  const auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return "";
  return metadata->value("uid", "");
}

}  // namespace

// Informer events: a deleted slice, or a relist (after a 410 the watch had
// a gap), is synced at once; additions and changes wait for the periodic
// resync (as upstream: the informer's copy settles first).
class SlicePublisher::WatchHandler : public kube::InformerHandler {
 public:
  explicit WatchHandler(SlicePublisher* publisher) : publisher_(publisher) {}
  void OnAdd(const nlohmann::json&) override {}
  void OnUpdate(const nlohmann::json&, const nlohmann::json&) override {}
  void OnDelete(const nlohmann::json& last_state) override {
    spdlog::info("ResourceSlice {} was deleted; syncing the pool",
                 NameOf(last_state));
    publisher_->MarkDirty();
  }
  // A (re)list may follow a gap in the watch in which a slice the
  // informer never stored came and went: check the pool at once.
  void OnRelistEnd() override { publisher_->MarkDirty(); }

 private:
  SlicePublisher* const publisher_;
};

SlicePublisher::SlicePublisher(kube::KubeClient* client,
                               efml::Inventory inventory,
                               SlicePublisherOptions options)
    : client_(client),
      options_(std::move(options)),
      field_selector_(FieldSelector(options_.slices.node_name)),
      inventory_(std::move(inventory)),
      effective_(options_.slices) {
  if (options_.clock == nullptr)
    owned_clock_ = std::make_unique<base::RealClock>();
  clock_ = options_.clock != nullptr ? options_.clock : owned_clock_.get();
  metrics::Registry* registry = options_.metrics;
  if (registry == nullptr) {
    owned_metrics_ = std::make_unique<metrics::Registry>();
    registry = owned_metrics_.get();
  }
  consumable_state_ = &registry->AddGauge(
      "gcushare_dra_consumable_capacity",
      "1 for the state of consumable capacity (sharing a card by memory) in "
      "this node's ResourceSlices: published, dropped (kube-apiserver "
      "dropped the fields: DRAConsumableCapacity is off; whole cards are "
      "published) or disabled (by configuration).",
      {"state"});
  writes_ = &registry->AddCounter(
      "gcushare_dra_resourceslice_writes_total",
      "ResourceSlice writes by the driver, by operation.", {"op"});
  sync_errors_ =
      &registry
           ->AddCounter("gcushare_dra_resourceslice_sync_errors_total",
                        "ResourceSlice syncs that failed (retried "
                        "with backoff).")
           .Get();
  SetConsumableState(options_.slices.consumable_capacity ? kConsumablePublished
                                                         : kConsumableDisabled);
  next_resync_ = clock_->SteadyNow() + options_.sync_delay;
}

SlicePublisher::~SlicePublisher() { Stop(); }

void SlicePublisher::Start() {
  base::MutexLock lifecycle(lifecycle_mu_);
  if (started_) return;
  started_ = true;
  handler_ = std::make_unique<WatchHandler>(this);
  kube::InformerOptions informer_options;
  informer_options.field_selector = field_selector_;
  informer_options.backoff = options_.backoff;
  informer_options.clock = clock_;
  informer_ = std::make_unique<kube::Informer>(
      client_, kube::Resource::ResourceSlices(), "", handler_.get(),
      std::move(informer_options));
  informer_->Start();
  informer_view_.store(informer_.get());
  worker_ = base::StartGuardedThread("slice-publish", [this] { Run(); });
}

void SlicePublisher::Stop() {
  base::MutexLock lifecycle(lifecycle_mu_);
  {
    base::MutexLock lock(mu_);
    stopping_ = true;
  }
  wake_.NotifyAll();
  cancel_.Cancel();
  if (worker_.joinable()) worker_.join();
  if (informer_ != nullptr) informer_->Stop();
}

void SlicePublisher::SetInventory(efml::Inventory inventory) {
  {
    base::MutexLock lock(mu_);
    if (inventory == inventory_) return;
    inventory_ = std::move(inventory);
    dirty_ = true;
  }
  wake_.NotifyAll();
}

void SlicePublisher::Poke() { wake_.NotifyAll(); }

void SlicePublisher::MarkDirty() {
  {
    base::MutexLock lock(mu_);
    dirty_ = true;
  }
  wake_.NotifyAll();
}

int64_t SlicePublisher::generation() const {
  base::MutexLock lock(mu_);
  return generation_;
}

DroppedFields SlicePublisher::dropped() const {
  base::MutexLock lock(mu_);
  return dropped_;
}

bool SlicePublisher::WaitForWork() {
  base::MutexLock lock(mu_);
  while (true) {
    if (stopping_) return false;
    if (dirty_) {
      dirty_ = false;
      return true;
    }
    if (clock_->SteadyNow() >= next_resync_) return true;
    wake_.WaitFor(lock, options_.clock_check);
  }
}

void SlicePublisher::Run() {
  base::Backoff backoff(options_.backoff);
  while (WaitForWork()) {
    const Status status = SyncOnce();
    if (status.ok()) {
      backoff.Reset();
      continue;
    }
    const std::chrono::nanoseconds delay = backoff.Next();
    spdlog::warn(
        "ResourceSlices of node {}: {}; retrying in {} ms",
        options_.slices.node_name, status.ToString(),
        std::chrono::duration_cast<std::chrono::milliseconds>(delay).count());
    if (!clock_->SleepFor(delay, &cancel_)) return;
    MarkDirty();
  }
}

Status SlicePublisher::SyncOnce() {
  base::MutexLock sync_lock(sync_mu_);
  ++syncs_;
  Status status = SyncLocked();
  if (!status.ok()) sync_errors_->Increment();
  base::MutexLock lock(mu_);
  next_resync_ = clock_->SteadyNow() + options_.sync_delay;
  return status;
}

Status SlicePublisher::SyncLocked() {
  const std::string& node = options_.slices.node_name;
  Status last = OkStatus();
  for (int round = 0; round < kMaxPlanRounds; ++round) {
    efml::Inventory inventory;
    SliceBuilderOptions build;
    {
      base::MutexLock lock(mu_);
      inventory = inventory_;
      build = effective_;
    }
    if (build.node_uid.empty()) {
      GCUSHARE_ASSIGN_OR_RETURN(build.node_uid, ReadNodeUid());
    }
    GCUSHARE_ASSIGN_OR_RETURN(std::vector<nlohmann::json> desired,
                              BuildSlices(inventory, build, 0));
    // In step by the informer's copy: nothing to ask the server.
    kube::Informer* informer = informer_view_.load();
    if (round == 0 && informer != nullptr && informer->HasSynced()) {
      std::vector<nlohmann::json> cached;
      for (const kube::Informer::ObjectPtr& slice : informer->Snapshot()) {
        cached.push_back(*slice);
      }
      const SlicePlan plan = PlanSlices(desired, cached, node);
      if (plan.empty()) {
        base::MutexLock lock(mu_);
        generation_ = plan.generation;
        return OkStatus();
      }
    }
    kube::ListOptions list_options;
    list_options.field_selector = field_selector_;
    list_options.cancel = &cancel_;
    GCUSHARE_ASSIGN_OR_RETURN(
        kube::ObjectList stored,
        client_->List(kube::Resource::ResourceSlices(), "", list_options));
    const SlicePlan plan = PlanSlices(desired, stored.items, node);
    if (plan.empty()) {
      base::MutexLock lock(mu_);
      generation_ = plan.generation;
      return OkStatus();
    }
    spdlog::info(
        "ResourceSlices of node {}: generation {}, {} to create, {} to "
        "update, {} to delete",
        node, plan.generation, plan.creates.size(), plan.updates.size(),
        plan.deletes.size());
    DroppedFields dropped;
    last = Execute(plan, &dropped);
    const bool replan = dropped.any() && HandleDropped(dropped);
    if (last.ok()) {
      base::MutexLock lock(mu_);
      generation_ = plan.generation;
      if (!replan) return OkStatus();
    } else if (!IsRace(last)) {
      return last;
    } else if (round >= options_.conflict_retries) {
      return last;
    } else {
      spdlog::info("ResourceSlices of node {}: {}; reading them again", node,
                   last.ToString());
    }
  }
  return last.ok() ? AbortedError("ResourceSlices of node " + node +
                                  " kept changing during the sync")
                   : last;
}

StatusOr<std::string> SlicePublisher::ReadNodeUid() {
  const std::string& node = options_.slices.node_name;
  StatusOr<nlohmann::json> object =
      client_->Get(kube::Resource::Nodes(), "", node);
  if (!object.ok()) return object.status().WithContext("read node " + node);
  const std::string uid = UidOf(*object);
  if (uid.empty()) return InvalidArgumentError("node " + node + " has no uid");
  base::MutexLock lock(mu_);
  effective_.node_uid = uid;
  return uid;
}

Status SlicePublisher::Execute(const SlicePlan& plan, DroppedFields* dropped) {
  const kube::Resource slices = kube::Resource::ResourceSlices();
  for (const nlohmann::json& slice : plan.deletes) {
    kube::DeleteOptions options;
    options.uid_precondition = UidOf(slice);
    const Status status = client_->Delete(slices, "", NameOf(slice), options);
    if (!status.ok() && status.http_code() != 404) {
      return status.WithContext("delete ResourceSlice " + NameOf(slice));
    }
    writes_->WithLabels({"delete"}).Increment();
  }
  for (const nlohmann::json& slice : plan.updates) {
    StatusOr<nlohmann::json> stored = client_->Update(slices, "", slice);
    if (!stored.ok()) {
      return stored.status().WithContext("update ResourceSlice " +
                                         NameOf(slice));
    }
    writes_->WithLabels({"update"}).Increment();
    *dropped |= FindDroppedFields(slice, *stored);
  }
  for (const nlohmann::json& slice : plan.creates) {
    StatusOr<nlohmann::json> stored = client_->Create(slices, "", slice);
    if (!stored.ok()) {
      return stored.status().WithContext("create ResourceSlice");
    }
    writes_->WithLabels({"create"}).Increment();
    *dropped |= FindDroppedFields(slice, *stored);
  }
  return OkStatus();
}

bool SlicePublisher::HandleDropped(const DroppedFields& dropped) {
  bool consumable = false;
  bool taints = false;
  {
    base::MutexLock lock(mu_);
    dropped_ |= dropped;
    if (dropped.consumable_capacity && effective_.consumable_capacity) {
      effective_.consumable_capacity = false;
      consumable = true;
    }
    if (dropped.taints && effective_.taint_unhealthy) {
      effective_.taint_unhealthy = false;
      taints = true;
    }
  }
  const std::string& node = options_.slices.node_name;
  if (consumable) {
    SetConsumableState(kConsumableDropped);
    Warn(kReasonConsumableCapacityDisabled,
         "kube-apiserver dropped allowMultipleAllocations and requestPolicy "
         "from the ResourceSlices of node " +
             node +
             " (feature gate DRAConsumableCapacity is off): GCU cards are "
             "now published whole, one claim per card, and cannot be shared "
             "by memory. Enable DRAConsumableCapacity on kube-apiserver, "
             "kube-scheduler and the kubelet, then restart the driver.");
  }
  if (taints) {
    Warn(kReasonDeviceTaintsDisabled,
         "kube-apiserver dropped the device taints from the ResourceSlices "
         "of node " +
             node +
             " (feature gate DRADeviceTaints is off): unhealthy GCU cards are "
             "now left out of the slices instead of tainted.");
  }
  return consumable || taints;
}

void SlicePublisher::Warn(std::string_view reason, const std::string& message) {
  spdlog::error("{}: {}", reason, message);
  kube::ObjectReference node;
  node.kind = "Node";
  node.name = options_.slices.node_name;
  {
    base::MutexLock lock(mu_);
    node.uid = effective_.node_uid;
  }
  StatusOr<nlohmann::json> event = client_->CreateEvent(
      "", node, "Warning", reason, message, contract::kDraDriverComponentName);
  if (!event.ok()) {
    spdlog::warn("could not record the {} event on node {}: {}", reason,
                 node.name, event.status().ToString());
  }
}

void SlicePublisher::SetConsumableState(std::string_view state) {
  for (std::string_view each :
       {kConsumablePublished, kConsumableDropped, kConsumableDisabled}) {
    consumable_state_->WithLabels({std::string(each)})
        .Set(each == state ? 1 : 0);
  }
}

}  // namespace gcushare::dra
