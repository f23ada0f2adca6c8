// NodeSync: publishes the latest NodePublication on a background thread and
// keeps retrying (exponential backoff, logged) until the API server takes it; a
// newer layout replaces one still waiting. So the node converges on the
// current cards even when the API server is down at start or at a change.
//
// Ownership: borrows the publisher and clock. Thread-safety: Update() and
// the counters from any thread; Start()/Stop() from one thread. Stop()
// returns promptly and joins.
#ifndef GCUSHARE_DEVICE_PLUGIN_NODE_SYNC_H_
#define GCUSHARE_DEVICE_PLUGIN_NODE_SYNC_H_

#include <atomic>
#include <cstdint>
#include <optional>
#include <thread>

#include "base/backoff.h"
#include "base/cancellation.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "device-plugin/node_publisher.h"
#include "device-plugin/plugin_metrics.h"

namespace gcushare::deviceplugin {

class NodeSync {
 public:
  // `metrics` (borrowed; may be null) counts each publish attempt.
  NodeSync(NodePublisher* publisher, base::Clock* clock,
           base::BackoffOptions backoff, PluginMetrics* metrics = nullptr);
  ~NodeSync();

  void Start();
  void Stop();
  void Update(NodePublication publication);

  // Publications published successfully so far.
  uint64_t published() const { return published_.load(); }

 private:
  void Run();

  NodePublisher* const publisher_;
  PluginMetrics* const metrics_;
  base::Clock* const clock_;
  const base::BackoffOptions backoff_;

  base::Mutex mu_;
  base::CondVar cv_;
  std::optional<NodePublication> pending_ GUARDED_BY(mu_);
  bool stopping_ GUARDED_BY(mu_) = false;

  base::Cancellation cancel_;
  std::thread thread_;
  std::atomic<uint64_t> published_{0};
};

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_NODE_SYNC_H_
