#include "assignment/assigned_marker.h"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "contract/names.h"

namespace gcushare::assignment {

AssignedMarker::AssignedMarker(kube::KubeClient* client, kube::Clock* clock,
                               kube::BackoffOptions backoff)
    : client_(client), clock_(clock), backoff_(backoff) {}

AssignedMarker::~AssignedMarker() { Stop(); }

Status AssignedMarker::Patch(kube::KubeClient* client, const std::string& ns,
                             const std::string& name, const std::string& uid) {
  nlohmann::json patch = {
      {"metadata",
       {{"annotations", {{std::string(contract::kPodAssigned), "true"}}}}}};
  if (!uid.empty()) patch["metadata"]["uid"] = uid;  // Same incarnation.
  return client
      ->Patch(kube::Resource::Pods(), ns, name, kube::PatchType::kMerge, patch,
              "")
      .status();
}

void AssignedMarker::Start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { Run(); });
}

void AssignedMarker::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  cancel_.Cancel();
  if (thread_.joinable()) thread_.join();
}

void AssignedMarker::Mark(std::string ns, std::string name, std::string uid) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back({std::move(ns), std::move(name), std::move(uid)});
  }
  cv_.notify_all();
}

size_t AssignedMarker::pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size() + in_flight_;
}

void AssignedMarker::Run() {
  for (;;) {
    Pending pod;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      pod = std::move(queue_.front());
      queue_.pop_front();
      ++in_flight_;
    }
    kube::Backoff backoff(backoff_);
    for (;;) {
      Status status = Patch(client_, pod.ns, pod.name, pod.uid);
      if (status.ok()) {
        spdlog::info("pod {}/{} marked {}=true (retried)", pod.ns, pod.name,
                     contract::kPodAssigned);
        break;
      }
      if (status.http_code() == 404 || status.http_code() == 409 ||
          status.http_code() == 422) {
        spdlog::info("pod {}/{}: not marked, it is gone or re-created ({})",
                     pod.ns, pod.name, status.message());
        break;
      }
      spdlog::warn("pod {}/{}: marking {}=true failed again: {}", pod.ns,
                   pod.name, contract::kPodAssigned, status.message());
      if (!clock_->SleepFor(backoff.Next(), &cancel_)) break;  // Stopped.
    }
    std::lock_guard<std::mutex> lock(mu_);
    --in_flight_;
  }
}

}  // namespace gcushare::assignment
