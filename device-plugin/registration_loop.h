// RegistrationLoop: keeps the plugin registered with kubelet for as long as
// it runs (docs/architecture.md flow step 1, docs/protocols.md 1.4).
//
//   1. serve on a fresh socket (ServingControl::Restart);
//   2. Register with kubelet; while kubelet is absent or refuses, retry with
//      exponential backoff, logging each attempt and the wait;
//   3. watch the directory every `poll_interval` (RestartDetector); when
//      kubelet restarted (kubelet.sock recreated or our socket removed), log
//      it and go back to 1.
//
// Ownership: borrows every collaborator (server, registrar, prober, clock),
// which must outlive it. Thread-safety: Start()/Stop() from one thread; the
// counters may be read from any thread. Stop() returns promptly (it cancels
// the loop's sleeps) and joins.
#ifndef GCUSHARE_DEVICE_PLUGIN_REGISTRATION_LOOP_H_
#define GCUSHARE_DEVICE_PLUGIN_REGISTRATION_LOOP_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include "base/backoff.h"
#include "base/cancellation.h"
#include "base/clock.h"
#include "device-plugin/api/api.pb.h"
#include "device-plugin/kubelet_registrar.h"
#include "device-plugin/plugin_server.h"
#include "device-plugin/restart_detector.h"

namespace gcushare::deviceplugin {

struct RegistrationOptions {
  std::string kubelet_socket;  // <dir>/kubelet.sock
  std::string plugin_socket;   // <dir>/<endpoint>
  v1beta1::RegisterRequest request;
  std::chrono::milliseconds poll_interval{1000};
  base::BackoffOptions backoff{std::chrono::milliseconds(500),
                               std::chrono::milliseconds(30000), 2.0, 0.2};
};

class RegistrationLoop {
 public:
  RegistrationLoop(RegistrationOptions options, ServingControl* server,
                   KubeletRegistrar* registrar, FileProber* prober,
                   base::Clock* clock);
  ~RegistrationLoop();  // Stop()s.

  void Start();
  void Stop();

  // Successful registrations so far.
  uint64_t registrations() const { return registrations_.load(); }
  // Failed Register calls so far.
  uint64_t failures() const { return failures_.load(); }

 private:
  void Run();

  const RegistrationOptions options_;
  ServingControl* const server_;
  KubeletRegistrar* const registrar_;
  FileProber* const prober_;
  base::Clock* const clock_;

  base::Cancellation cancel_;
  std::thread thread_;
  std::atomic<uint64_t> registrations_{0};
  std::atomic<uint64_t> failures_{0};
};

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_REGISTRATION_LOOP_H_
