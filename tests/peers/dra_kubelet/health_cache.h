// The kubelet's device health cache for DRA (KEP-4680;
// pkg/kubelet/cm/dra/healthinfo.go and manager.go buildDeviceHealth):
//   - Update() takes one NodeWatchResources message (the driver's complete
//     list), stamps each device with the kubelet's receive time (the
//     plugin's last_updated_time is kept only for display), and keeps its
//     health_check_timeout_seconds (0 or negative: the default 30 s);
//   - Get() reads Unknown for a device never reported, or not refreshed
//     within its timeout;
//   - ClearDriver() forgets a driver (the kubelet does it when the stream
//     ends).
//
// Time comes from the injected clock. Thread-safe (one mutex).
#ifndef GCUSHARE_TESTS_PEERS_DRA_KUBELET_HEALTH_CACHE_H_
#define GCUSHARE_TESTS_PEERS_DRA_KUBELET_HEALTH_CACHE_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"

namespace gcushare::peers::dra_kubelet {

inline constexpr std::chrono::seconds kDefaultHealthTimeout{30};

enum class DeviceHealthStatus { kUnknown, kHealthy, kUnhealthy };

// "Unknown", "Healthy", "Unhealthy" (core/v1 ResourceHealthStatus).
const char* HealthName(DeviceHealthStatus status);

struct DeviceHealthReport {
  std::string pool_name;
  std::string device_name;
  DeviceHealthStatus health = DeviceHealthStatus::kUnknown;
  int64_t last_updated_time = 0;             // As the plugin sent it.
  int64_t health_check_timeout_seconds = 0;  // As the plugin sent it.
  std::string message;
};

struct DeviceHealthView {
  DeviceHealthStatus health = DeviceHealthStatus::kUnknown;
  std::string message;
};

class HealthCache {
 public:
  explicit HealthCache(base::Clock* clock) : clock_(clock) {}

  void Update(const std::string& driver,
              const std::vector<DeviceHealthReport>& devices);
  DeviceHealthView Get(const std::string& driver, const std::string& pool,
                       const std::string& device) const;
  void ClearDriver(const std::string& driver);

 private:
  struct Entry {
    DeviceHealthStatus health;
    std::string message;
    std::chrono::nanoseconds timeout;
    std::chrono::steady_clock::time_point received;
  };
  base::Clock* const clock_;
  mutable base::Mutex mu_;
  // driver -> "pool/device" -> entry.
  std::map<std::string, std::map<std::string, Entry>> drivers_ GUARDED_BY(mu_);
};

}  // namespace gcushare::peers::dra_kubelet

#endif  // GCUSHARE_TESTS_PEERS_DRA_KUBELET_HEALTH_CACHE_H_
