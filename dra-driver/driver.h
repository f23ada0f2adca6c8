// Driver: gcushare-dra-driver assembled around its parts, for main and for
// tests that run the whole driver in-process.
//
// Start() serves the DRA services (v1, v1beta1, health) on the service
// socket first, then the registration service on the registration socket,
// so that the kubelet, which dials back the announced endpoint as soon as
// it sees the registration socket, always finds it served. It publishes the
// first health report and hands the inventory to `on_inventory` (the slice
// publisher); afterwards every change the health monitor reports is
// published to the kubelet's health stream and handed on the same way.
// A refusal from the kubelet (NotifyRegistrationStatus with
// plugin_registered false) calls `on_refused` once.
// Stop() removes the registration socket first (the kubelet stops seeing
// the plugin), then ends the service; both sockets are gone afterwards.
//
// Ownership: borrows the claim handler and the health monitor (they must
// outlive Stop()); owns the services and servers.
// Thread-safety: Start/Stop from one thread; callbacks run on the health
// monitor's thread or a gRPC thread.
// Failure: Start() returns the first server that cannot listen, after
// stopping what it started.
#ifndef GCUSHARE_DRA_DRIVER_DRIVER_H_
#define GCUSHARE_DRA_DRIVER_DRIVER_H_

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "base/clock.h"
#include "dra-driver/claim_handler.h"
#include "dra-driver/dra_service.h"
#include "dra-driver/health_service.h"
#include "dra-driver/kubelet_paths.h"
#include "dra-driver/registration_service.h"
#include "dra-driver/unix_grpc_server.h"
#include "efml/health_monitor.h"
#include "status/status.h"

namespace gcushare::dra {

struct DriverOptions {
  std::string driver_name;
  std::string node_name;  // The pool's name.
  KubeletPaths paths;
  ClaimHandler* claims = nullptr;         // Borrowed; required.
  efml::HealthMonitor* health = nullptr;  // Borrowed; required.
  base::Clock* clock = nullptr;           // Borrowed; required.
  std::function<void(const efml::Inventory&)> on_inventory;  // May be empty.
  std::function<void(const std::string& why)> on_refused;    // May be empty.
};

class Driver {
 public:
  explicit Driver(DriverOptions options);
  ~Driver();  // Stops.
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  Status Start();
  void Stop();  // Idempotent.

  // Whether the kubelet has accepted the registration (last verdict).
  bool registered() const { return registered_.load(); }

 private:
  void OnInventory(const efml::Inventory& inventory);

  DriverOptions options_;
  HealthReports reports_;
  DraServiceV1 v1_;
  DraServiceV1beta1 v1beta1_;
  HealthService health_service_;
  RegistrationService registration_;
  UnixGrpcServer service_server_;
  UnixGrpcServer registration_server_;
  std::atomic<bool> registered_{false};
  std::atomic<bool> refused_{false};
  efml::HealthMonitor::SubscriptionId subscription_ = 0;
  bool subscribed_ = false;
};

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_DRIVER_H_
