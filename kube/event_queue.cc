#include "kube/event_queue.h"

#include <spdlog/spdlog.h>

namespace gcushare::kube {

EventQueue::EventQueue(KubeClient* client, std::string reporting_component,
                       size_t remembered)
    : client_(client),
      component_(std::move(reporting_component)),
      remembered_(remembered == 0 ? 1 : remembered) {}

EventQueue::~EventQueue() { Stop(); }

void EventQueue::Start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { Run(); });
}

void EventQueue::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void EventQueue::Post(const ObjectReference& involved, std::string type,
                      std::string reason, std::string message) {
  std::string key = involved.uid + "\n" + reason + "\n" + message;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!seen_.insert(key).second) return;
    seen_order_.push_back(std::move(key));
    if (seen_order_.size() > remembered_) {
      seen_.erase(seen_order_.front());
      seen_order_.pop_front();
    }
    queue_.push_back(
        {involved, std::move(type), std::move(reason), std::move(message)});
  }
  cv_.notify_all();
}

size_t EventQueue::pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size() + in_flight_;
}

void EventQueue::Run() {
  for (;;) {
    Item item;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      item = std::move(queue_.front());
      queue_.pop_front();
      ++in_flight_;
    }
    auto posted =
        client_->CreateEvent(item.involved.namespace_name, item.involved,
                             item.type, item.reason, item.message, component_);
    if (!posted.ok()) {
      spdlog::warn("event {} on {}/{} not recorded: {}", item.reason,
                   item.involved.namespace_name, item.involved.name,
                   posted.status().message());
    }
    std::lock_guard<std::mutex> lock(mu_);
    --in_flight_;
  }
}

}  // namespace gcushare::kube
