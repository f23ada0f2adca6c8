#include "nri-plugin/session.h"

#include <spdlog/spdlog.h>

#include <atomic>

#include "nri-plugin/mux/trunk.h"
#include "nri-plugin/net/unix_socket.h"
#include "nri-plugin/plugin_service.h"
#include "nri-plugin/protocol.h"
#include "nri-plugin/ttrpc/client.h"
#include "nri-plugin/ttrpc/server.h"

namespace gcushare::nri {

Status RunSession(const SessionOptions& options, ContainerAdjuster* adjuster,
                  base::Cancellation* cancel,
                  const std::function<void()>& on_registered) {
  GCUSHARE_ASSIGN_OR_RETURN(UniqueFd fd, ConnectUnix(options.socket_path));
  mux::Trunk trunk(std::move(fd));
  ttrpc::Server server(trunk.Sink(mux::kPluginServiceConn), options.workers);
  ttrpc::Client client(trunk.Sink(mux::kRuntimeServiceConn));
  std::atomic<bool> shutdown{false};
  RegisterPluginService(
      &server, adjuster, [&] { shutdown = true; }, options.metrics);
  trunk.Attach(mux::kPluginServiceConn, &server);
  trunk.Attach(mux::kRuntimeServiceConn, &client);
  trunk.Start([&client](const Status& why) { client.Fail(why); });
  base::Cancellation::WakerId waker =
      cancel->AddWaker([&trunk] { trunk.Close(); });

  auto finish = [&](Status why) {
    cancel->RemoveWaker(waker);
    trunk.Close();
    trunk.Join();
    server.Stop();
    if (cancel->IsCancelled()) {
      return Status(StatusCode::kCancelled, "plugin stopping");
    }
    return why;
  };

  api::RegisterPluginRequest request;
  request.set_plugin_name(options.plugin_name);
  request.set_plugin_idx(options.plugin_index);
  StatusOr<api::Empty> registered = client.CallProto<api::Empty>(
      kRuntimeService, "RegisterPlugin", request, options.registration_timeout);
  if (!registered.ok()) {
    return finish(registered.status().WithContext("registration"));
  }
  spdlog::info("registered with the runtime at {} as {} (index {})",
               options.socket_path, options.plugin_name, options.plugin_index);
  if (on_registered) on_registered();

  while (!trunk.WaitClosed(std::chrono::milliseconds(200))) {
    if (shutdown.load()) {
      // Give the runtime a moment to read our answer and close first.
      trunk.WaitClosed(std::chrono::seconds(1));
      return finish(UnavailableError("the runtime sent Shutdown"));
    }
  }
  return finish(trunk.close_reason());
}

}  // namespace gcushare::nri
