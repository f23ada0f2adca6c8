#include "tests/peers/scheduler/continuous_scheduler.h"

#include <spdlog/spdlog.h>

#include <utility>
#include <vector>

#include "kube/resource.h"
#include "tests/peers/scheduler/pending_pods.h"

namespace gcushare::scheduler {
namespace {

bool IsBoundAndRunning(const nlohmann::json& pod) {
  const std::string node = pod.value("/spec/nodeName"_json_pointer, "");
  const std::string phase = pod.value("/status/phase"_json_pointer, "");
  return !node.empty() && phase != "Succeeded" && phase != "Failed";
}

// What the scheduler looks at in a pod: a change elsewhere (status, our own
// condition) does not make a failed pod worth another try.
bool SchedulingInputsChanged(const nlohmann::json& old_pod,
                             const nlohmann::json& new_pod) {
  static const nlohmann::json kNull;
  const auto part = [](const nlohmann::json& pod,
                       const char* pointer) -> const nlohmann::json& {
    const nlohmann::json::json_pointer path(pointer);
    return pod.contains(path) ? pod.at(path) : kNull;
  };
  for (const char* pointer :
       {"/spec", "/metadata/labels", "/metadata/annotations"}) {
    if (part(old_pod, pointer) != part(new_pod, pointer)) return true;
  }
  return false;
}

}  // namespace

class ContinuousScheduler::PodHandler : public kube::InformerHandler {
 public:
  PodHandler(SchedulingQueue* queue, const std::set<std::string>* names)
      : queue_(queue), names_(names) {}

  void OnAdd(const nlohmann::json& pod) override {
    if (IsUnscheduledFor(pod, *names_)) queue_->Add(PodKey(pod));
  }

  void OnUpdate(const nlohmann::json& old_pod,
                const nlohmann::json& new_pod) override {
    const std::string key = PodKey(new_pod);
    if (IsUnscheduledFor(new_pod, *names_)) {
      queue_->Add(key, SchedulingInputsChanged(old_pod, new_pod));
      return;
    }
    queue_->Remove(key);
    if (IsBoundAndRunning(old_pod) && !IsBoundAndRunning(new_pod)) {
      queue_->MoveAllToActive();  // Its resources are free again.
    }
  }

  void OnDelete(const nlohmann::json& pod) override {
    queue_->Remove(PodKey(pod));
    if (IsBoundAndRunning(pod)) queue_->MoveAllToActive();
  }

 private:
  SchedulingQueue* const queue_;
  const std::set<std::string>* const names_;
};

class ContinuousScheduler::NodeHandler : public kube::InformerHandler {
 public:
  explicit NodeHandler(SchedulingQueue* queue) : queue_(queue) {}

  void OnAdd(const nlohmann::json&) override { queue_->MoveAllToActive(); }
  void OnUpdate(const nlohmann::json&, const nlohmann::json&) override {
    queue_->MoveAllToActive();
  }
  void OnDelete(const nlohmann::json&) override {}

 private:
  SchedulingQueue* const queue_;
};

ContinuousScheduler::ContinuousScheduler(kube::KubeClient* client,
                                         PodScheduler* scheduler,
                                         ContinuousOptions options)
    : client_(client), scheduler_(scheduler), options_(std::move(options)) {
  pod_handler_ =
      std::make_unique<PodHandler>(&queue_, &options_.scheduler_names);
  node_handler_ = std::make_unique<NodeHandler>(&queue_);
  kube::InformerOptions informer_options;
  informer_options.clock = options_.clock;
  pods_ =
      std::make_unique<kube::Informer>(client_, kube::Resource::Pods(), "",
                                       pod_handler_.get(), informer_options);
  nodes_ =
      std::make_unique<kube::Informer>(client_, kube::Resource::Nodes(), "",
                                       node_handler_.get(), informer_options);
}

ContinuousScheduler::~ContinuousScheduler() { Stop(); }

Status ContinuousScheduler::Start() {
  nodes_->Start();
  pods_->Start();
  if (!nodes_->WaitForSync(options_.sync_timeout) ||
      !pods_->WaitForSync(options_.sync_timeout)) {
    return UnavailableError(
        "could not list nodes and pods from the API server");
  }
  spdlog::info("Informers synced: {} node(s), {} pod(s)", nodes_->size(),
               pods_->size());
  worker_ = std::thread([this] { Work(); });
  return OkStatus();
}

void ContinuousScheduler::Stop() {
  if (stopping_.exchange(true)) return;
  queue_.Shutdown();
  if (worker_.joinable()) worker_.join();
  pods_->Stop();
  nodes_->Stop();
}

void ContinuousScheduler::Work() {
  while (!stopping_.load()) {
    queue_.FlushParked(options_.clock->SteadyNow(), options_.max_unschedulable);
    std::optional<std::string> key = queue_.Pop(std::chrono::milliseconds(500));
    if (!key.has_value()) continue;
    kube::Informer::ObjectPtr pod = pods_->Get(*key);
    if (pod == nullptr || !IsUnscheduledFor(*pod, options_.scheduler_names)) {
      queue_.Done(*key, /*bound=*/true, options_.clock->SteadyNow());
      continue;
    }
    Snapshot snapshot;
    for (const auto& node : nodes_->Snapshot()) snapshot.nodes.push_back(node);
    for (const auto& other : pods_->Snapshot()) snapshot.pods.push_back(other);
    ++attempts_;
    const ScheduleResult result = scheduler_->ScheduleOne(*pod, snapshot);
    queue_.Done(*key, result.bound, options_.clock->SteadyNow());
  }
}

}  // namespace gcushare::scheduler
