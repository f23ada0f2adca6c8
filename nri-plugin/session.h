// One connection of the plugin to the runtime (docs/protocols.md 4.5): dial the
// NRI socket, wrap it in the mux, serve the Plugin service on connection 1,
// call Runtime.RegisterPlugin on connection 2, then serve until the
// connection ends.
//
// Returns why the session ended: kCancelled when `cancel` fired; the
// connection's close reason otherwise (the runtime went away, a corrupt or
// oversized frame, a failed registration). After a Shutdown call the
// session waits briefly for the runtime to close, then closes itself.
//
// Ownership: borrows the adjuster and the cancellation. Thread-safety: one
// session per thread; `on_registered` runs on the calling thread.
#ifndef GCUSHARE_NRI_PLUGIN_SESSION_H_
#define GCUSHARE_NRI_PLUGIN_SESSION_H_

#include <chrono>
#include <functional>
#include <string>

#include "base/cancellation.h"
#include "nri-plugin/container_adjuster.h"
#include "nri-plugin/plugin_metrics.h"
#include "status/status.h"

namespace gcushare::nri {

struct SessionOptions {
  std::string socket_path = "/var/run/nri/nri.sock";
  std::string plugin_name = "gcushare";
  std::string plugin_index = "10";  // Two digits.
  // containerd's default registration timeout is 5 s.
  std::chrono::milliseconds registration_timeout{5000};
  int workers = 4;                // Concurrent CreateContainer calls.
  NriMetrics* metrics = nullptr;  // Borrowed; null: not counted.
};

Status RunSession(const SessionOptions& options, ContainerAdjuster* adjuster,
                  base::Cancellation* cancel,
                  const std::function<void()>& on_registered);

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_SESSION_H_
