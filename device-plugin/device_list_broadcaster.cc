#include "device-plugin/device_list_broadcaster.h"

namespace gcushare::deviceplugin {

void DeviceListBroadcaster::Publish(ListPtr list) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    current_.version++;
    current_.list = std::move(list);
  }
  cv_.notify_all();
}

DeviceListBroadcaster::Snapshot DeviceListBroadcaster::Current() const {
  std::lock_guard<std::mutex> lock(mu_);
  return current_;
}

std::optional<DeviceListBroadcaster::Snapshot> DeviceListBroadcaster::WaitNewer(
    uint64_t after_version, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  bool ready = cv_.wait_for(lock, timeout, [&] {
    return closed_ || current_.version > after_version;
  });
  if (!ready || closed_) return std::nullopt;
  return current_;
}

void DeviceListBroadcaster::Close() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
  }
  cv_.notify_all();
}

bool DeviceListBroadcaster::closed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return closed_;
}

}  // namespace gcushare::deviceplugin
