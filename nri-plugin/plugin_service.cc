#include "nri-plugin/plugin_service.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <string>

namespace gcushare::nri {

void RegisterPluginService(ttrpc::Server* server, ContainerAdjuster* adjuster,
                           const std::function<void()>& on_shutdown,
                           NriMetrics* metrics) {
  const std::string service(kPluginService);
  server->RegisterProto<api::ConfigureRequest, api::ConfigureResponse>(
      service, "Configure",
      [adjuster](const ttrpc::RequestContext&, const api::ConfigureRequest& r)
          -> StatusOr<api::ConfigureResponse> {
        spdlog::info(
            "configured by {} {} (NRI {}; registration timeout {} ms, "
            "request timeout {} ms)",
            r.runtime_name(), r.runtime_version(),
            r.nri_version().empty() ? "before v0.12" : r.nri_version(),
            r.registration_timeout(), r.request_timeout());
        // A pod not cached yet is waited for at most half the deadline.
        adjuster->SetRequestTimeout(
            std::chrono::milliseconds(r.request_timeout()));
        api::ConfigureResponse response;
        response.set_events(kSubscribedEvents);
        return response;
      });
  server->RegisterProto<api::SynchronizeRequest, api::SynchronizeResponse>(
      service, "Synchronize",
      [](const ttrpc::RequestContext&, const api::SynchronizeRequest& r)
          -> StatusOr<api::SynchronizeResponse> {
        spdlog::info("synchronize: {} pods, {} containers{}", r.pods_size(),
                     r.containers_size(), r.more() ? ", more to come" : "");
        api::SynchronizeResponse response;
        if (r.more()) response.set_more(true);
        return response;
      });
  server->RegisterProto<api::CreateContainerRequest,
                        api::CreateContainerResponse>(
      service, "CreateContainer",
      [adjuster, metrics](const ttrpc::RequestContext&,
                          const api::CreateContainerRequest& r)
          -> StatusOr<api::CreateContainerResponse> {
        const auto start = std::chrono::steady_clock::now();
        StatusOr<api::CreateContainerResponse> response =
            adjuster->CreateContainer(r);
        if (metrics != nullptr) {
          metrics->Created(response.status(),
                           response.ok() && response->has_adjust(),
                           std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - start)
                               .count());
        }
        if (!response.ok()) {
          spdlog::error("CreateContainer failed: {}",
                        response.status().ToString());
        }
        return response;
      });
  server->RegisterProto<api::StateChangeEvent, api::Empty>(
      service, "StateChange",
      [](const ttrpc::RequestContext&,
         const api::StateChangeEvent& e) -> StatusOr<api::Empty> {
        spdlog::debug("state change {} for pod {}/{}",
                      api::Event_Name(e.event()), e.pod().namespace_(),
                      e.pod().name());
        return api::Empty();
      });
  server->RegisterProto<api::Empty, api::Empty>(
      service, "Shutdown",
      [on_shutdown](const ttrpc::RequestContext&,
                    const api::Empty&) -> StatusOr<api::Empty> {
        spdlog::info("the runtime is shutting down");
        if (on_shutdown) on_shutdown();
        return api::Empty();
      });
}

}  // namespace gcushare::nri
