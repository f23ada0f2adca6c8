// The handlers of NRI's Plugin service for GCUShare, registered on a ttrpc
// server (the plugin side of mux connection 1).
//
//   Configure       -> subscribe to CREATE_CONTAINER only (bit 0x8, valid
//                      for every NRI version from v0.3); its request_timeout
//                      (ms, v0.7+; absent: 2 s) caps the adjuster's pod wait
//   Synchronize     -> no updates; {more: true} while the runtime has more
//   CreateContainer -> ContainerAdjuster
//   StateChange     -> accepted (the NRI <= v0.11 path for other events)
//   Shutdown        -> accepted; `on_shutdown` ends the session
// The per-event RPCs of NRI v0.12 are not registered, so they are answered
// Unimplemented and a v0.12 runtime falls back to StateChange.
//
// Ownership: borrows the server and the adjuster. Thread-safety: handlers
// run on the server's workers and may run concurrently.
#ifndef GCUSHARE_NRI_PLUGIN_PLUGIN_SERVICE_H_
#define GCUSHARE_NRI_PLUGIN_PLUGIN_SERVICE_H_

#include <cstdint>
#include <functional>

#include "nri-plugin/container_adjuster.h"
#include "nri-plugin/plugin_metrics.h"
#include "nri-plugin/protocol.h"
#include "nri-plugin/ttrpc/server.h"

namespace gcushare::nri {

inline constexpr int32_t kSubscribedEvents = EventMask({api::CREATE_CONTAINER});

// `metrics` (borrowed; may be null) counts and times CreateContainer.
void RegisterPluginService(ttrpc::Server* server, ContainerAdjuster* adjuster,
                           const std::function<void()>& on_shutdown,
                           NriMetrics* metrics = nullptr);

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_PLUGIN_SERVICE_H_
