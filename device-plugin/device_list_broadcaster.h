// DeviceListBroadcaster: the current ListAndWatch device list, and a way for
// every open ListAndWatch stream to wait for the next one.
//
// The plugin publishes the full list on every change (kubelet expects the
// whole list each time, never a delta). Each publication gets a version
// number 1, 2, ...; a stream remembers the version it sent last and waits
// for a newer one.
//
// Ownership: lists are shared, immutable. Thread-safety: thread-safe.
#ifndef GCUSHARE_DEVICE_PLUGIN_DEVICE_LIST_BROADCASTER_H_
#define GCUSHARE_DEVICE_PLUGIN_DEVICE_LIST_BROADCASTER_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

#include "device-plugin/api/api.pb.h"

namespace gcushare::deviceplugin {

class DeviceListBroadcaster {
 public:
  using ListPtr = std::shared_ptr<const v1beta1::ListAndWatchResponse>;

  struct Snapshot {
    uint64_t version = 0;  // 0: nothing published yet.
    ListPtr list;
  };

  void Publish(ListPtr list);
  Snapshot Current() const;

  // The first publication newer than `after_version`, or nullopt when
  // `timeout` passes first or the broadcaster is closed.
  std::optional<Snapshot> WaitNewer(uint64_t after_version,
                                    std::chrono::milliseconds timeout);

  // Wakes every waiter for good (shutdown).
  void Close();
  bool closed() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  Snapshot current_;     // Guarded by mu_.
  bool closed_ = false;  // Guarded by mu_.
};

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_DEVICE_LIST_BROADCASTER_H_
