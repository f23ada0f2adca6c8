#include "kube/event_queue.h"

#include <spdlog/spdlog.h>

#include <utility>

namespace gcushare::kube {

EventQueue::EventQueue(KubeClient* client, std::string reporting_component,
                       size_t remembered, size_t capacity)
    : client_(client),
      component_(std::move(reporting_component)),
      queue_(&clock_,
             {"event queue", capacity == 0 ? 1 : capacity,
              remembered == 0 ? 1 : remembered, base::BackoffOptions{}}) {}

void EventQueue::Post(const ObjectReference& involved, std::string type,
                      std::string reason, std::string message) {
  std::string key = involved.uid + "\n" + reason + "\n" + message;
  queue_.Add(key, [this, involved, type = std::move(type),
                   reason = std::move(reason), message = std::move(message)] {
    auto posted = client_->CreateEvent(involved.namespace_name, involved, type,
                                       reason, message, component_);
    if (!posted.ok()) {
      spdlog::warn("event {} on {}/{} not recorded: {}", reason,
                   involved.namespace_name, involved.name,
                   posted.status().message());
    }
    return BackgroundQueue::Outcome::kDone;
  });
}

}  // namespace gcushare::kube
