#include "tests/peers/dra_kubelet/health_cache.h"

namespace gcushare::peers::dra_kubelet {

const char* HealthName(DeviceHealthStatus status) {
  switch (status) {
    case DeviceHealthStatus::kHealthy:
      return "Healthy";
    case DeviceHealthStatus::kUnhealthy:
      return "Unhealthy";
    case DeviceHealthStatus::kUnknown:
      break;
  }
  return "Unknown";
}

void HealthCache::Update(const std::string& driver,
                         const std::vector<DeviceHealthReport>& devices) {
  base::MutexLock lock(mu_);
  auto now = clock_->SteadyNow();
  std::map<std::string, Entry>& known = drivers_[driver];
  for (const DeviceHealthReport& report : devices) {
    std::chrono::nanoseconds timeout = kDefaultHealthTimeout;
    if (report.health_check_timeout_seconds > 0) {
      timeout = std::chrono::seconds(report.health_check_timeout_seconds);
    }
    known[report.pool_name + "/" + report.device_name] =
        Entry{report.health, report.message, timeout, now};
  }
  // Devices left out keep their entry; Get() turns them Unknown once they
  // are older than their timeout, as the kubelet's phase 2 does.
}

DeviceHealthView HealthCache::Get(const std::string& driver,
                                  const std::string& pool,
                                  const std::string& device) const {
  base::MutexLock lock(mu_);
  auto found_driver = drivers_.find(driver);
  if (found_driver == drivers_.end()) return {};
  auto found = found_driver->second.find(pool + "/" + device);
  if (found == found_driver->second.end()) return {};
  if (clock_->SteadyNow() - found->second.received > found->second.timeout) {
    return {};
  }
  return DeviceHealthView{found->second.health, found->second.message};
}

void HealthCache::ClearDriver(const std::string& driver) {
  base::MutexLock lock(mu_);
  drivers_.erase(driver);
}

}  // namespace gcushare::peers::dra_kubelet
