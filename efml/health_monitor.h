// HealthMonitor: polls a CardSource and tells subscribers when cards change.
//
// Each poll calls Discover() and compares the result, card index by card
// index, with the last known inventory. A card whose health flipped, that
// appeared, or whose attributes changed is "changed"; a card that vanished
// from discovery is kept in the inventory, marked unhealthy, and is changed
// once (when it goes unhealthy). When anything changed, the monitor stores
// the new inventory and calls every subscriber with it and the changed
// indexes (ascending). When Discover() fails, the monitor keeps the last
// inventory, notifies nobody and logs a warning once per distinct error.
//
// Ownership: the CardSource is borrowed and must outlive the monitor (or at
// least Stop()). Subscribers are owned by the monitor as std::function.
// Thread-safety: every method is thread-safe. Polls are serialised (calls to
// the CardSource never overlap) and subscribers are called on the polling
// thread, one notification at a time, without the monitor's state lock
// held: a callback may call Current(), Subscribe() or Unsubscribe(), but not
// PollOnce(), Start() or Stop() (that would deadlock). A callback may still
// run once after Unsubscribe() returns if a notification was in progress.
// Failure: no method fails; Discover() errors are logged and absorbed.
#ifndef GCUSHARE_EFML_HEALTH_MONITOR_H_
#define GCUSHARE_EFML_HEALTH_MONITOR_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "efml/card.h"
#include "efml/card_source.h"

namespace gcushare::efml {

class HealthMonitor {
 public:
  using Callback = std::function<void(const Inventory& inventory,
                                      const std::vector<uint32_t>& changed)>;
  using SubscriptionId = uint64_t;

  HealthMonitor(CardSource& source, Inventory initial);
  // Stops the polling thread, if any.
  ~HealthMonitor();
  HealthMonitor(const HealthMonitor&) = delete;
  HealthMonitor& operator=(const HealthMonitor&) = delete;

  // Adds a subscriber; the id is never reused.
  SubscriptionId Subscribe(Callback callback);
  // Removes a subscriber; unknown ids are ignored.
  void Unsubscribe(SubscriptionId id);

  // One poll (see the file comment). Returns when subscribers have been
  // notified.
  void PollOnce();

  // Polls every `interval` on a background thread, first after one
  // interval. No-op when already started.
  void Start(std::chrono::milliseconds interval);
  // Stops and joins the polling thread; returns promptly (it waits at most
  // for a poll in progress). No-op when not started.
  void Stop();

  // A copy of the current inventory.
  Inventory Current() const;

 private:
  void Run(std::chrono::milliseconds interval);

  CardSource& source_;

  // Serialises polls, hence CardSource calls and notifications.
  base::Mutex poll_mutex_;
  std::string last_error_ GUARDED_BY(poll_mutex_);

  mutable base::Mutex mutex_;
  Inventory inventory_ GUARDED_BY(mutex_);
  std::map<SubscriptionId, Callback> subscribers_ GUARDED_BY(mutex_);
  SubscriptionId next_id_ GUARDED_BY(mutex_) = 1;
  bool stop_requested_ GUARDED_BY(mutex_) = false;
  base::CondVar wake_;

  base::Mutex thread_mutex_;  // Start/Stop.
  std::thread thread_ GUARDED_BY(thread_mutex_);
};

}  // namespace gcushare::efml

#endif  // GCUSHARE_EFML_HEALTH_MONITOR_H_
