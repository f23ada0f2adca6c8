#include "device-plugin/node_sync.h"

#include <spdlog/spdlog.h>

#include "base/guarded_thread.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::deviceplugin {

NodeSync::NodeSync(NodePublisher* publisher, base::Clock* clock,
                   base::BackoffOptions backoff, PluginMetrics* metrics)
    : publisher_(publisher),
      metrics_(metrics),
      clock_(clock),
      backoff_(backoff) {}

NodeSync::~NodeSync() { Stop(); }

void NodeSync::Start() {
  if (thread_.joinable()) return;
  thread_ = base::StartGuardedThread("node sync", [this] { Run(); });
}

void NodeSync::Stop() {
  {
    base::MutexLock lock(mu_);
    stopping_ = true;
  }
  cv_.NotifyAll();
  cancel_.Cancel();
  if (thread_.joinable()) thread_.join();
}

void NodeSync::Update(NodePublication publication) {
  {
    base::MutexLock lock(mu_);
    pending_ = std::move(publication);
  }
  cv_.NotifyAll();
}

void NodeSync::Run() {
  base::Backoff backoff(backoff_);
  while (true) {
    NodePublication publication;
    {
      base::MutexLock lock(mu_);
      cv_.Wait(lock, [&]() REQUIRES(mu_) {
        return stopping_ || pending_.has_value();
      });
      if (stopping_) return;
      publication = std::move(*pending_);
      pending_.reset();
    }
    Status s = publisher_->Publish(publication);
    if (metrics_ != nullptr) metrics_->NodePatched(s);
    if (s.ok()) {
      backoff.Reset();
      published_++;
      spdlog::info(
          "node published: {} card(s) ({} healthy), unit {} GiB{}",
          publication.card_count, publication.healthy_card_count,
          publication.layout.unit.ToString(),
          publication.memory_capacity
              ? ", gcu-memory capacity " +
                    std::to_string(*publication.memory_capacity) +
                    " allocatable " +
                    std::to_string(publication.memory_allocatable.value_or(0))
              : std::string());
      continue;
    }
    std::chrono::nanoseconds wait = backoff.Next();
    spdlog::warn("{}; trying again in {:.1f}s", s.message(),
                 std::chrono::duration<double>(wait).count());
    {
      // Retry this publication unless a newer one arrived meanwhile.
      base::MutexLock lock(mu_);
      if (!pending_) pending_ = std::move(publication);
    }
    if (!clock_->SleepFor(wait, &cancel_)) return;
  }
}

}  // namespace gcushare::deviceplugin
