#include "metrics/http_endpoint.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <chrono>

#include "base/guarded_thread.h"

namespace gcushare::metrics {

void AddEndpointFlags(CLI::App& app, EndpointFlags* flags) {
  app.add_option("--metrics-port", flags->port,
                 "Port of the Prometheus endpoint (GET /metrics); 0, the "
                 "default, serves none: on the host network the port opens "
                 "on the node (default 0).")
      ->check(CLI::Range(0, 65535));
  app.add_option("--metrics-address", flags->address,
                 "Address the metrics endpoint listens on: 0.0.0.0 lets "
                 "Prometheus scrape the pod IP (on the host network, the "
                 "node's IP); 127.0.0.1 keeps it on the node (default "
                 "0.0.0.0).");
}

HttpEndpoint::HttpEndpoint(const Registry* registry)
    : registry_(registry), server_(std::make_unique<httplib::Server>()) {
  server_->new_task_queue = [] { return new httplib::ThreadPool(2); };
  server_->Get("/metrics", [this](const httplib::Request&,
                                  httplib::Response& res) {
    res.set_content(registry_->Render(), std::string(Registry::kContentType));
  });
}

HttpEndpoint::~HttpEndpoint() { Stop(); }

StatusOr<std::unique_ptr<HttpEndpoint>> HttpEndpoint::Start(
    const Registry* registry, const std::string& address, int port) {
  std::unique_ptr<HttpEndpoint> endpoint(new HttpEndpoint(registry));
  httplib::Server& server = *endpoint->server_;
  endpoint->port_ = port == 0
                        ? server.bind_to_any_port(address)
                        : (server.bind_to_port(address, port) ? port : -1);
  if (endpoint->port_ <= 0) {
    return UnavailableError("metrics endpoint: cannot listen on " + address +
                            ":" + std::to_string(port));
  }
  endpoint->thread_ = base::StartGuardedThread(
      "metrics http", [&server] { server.listen_after_bind(); });
  // stop() is a no-op until the listen loop runs: wait for it, so that a
  // quick Stop() cannot leave the loop running forever.
  while (!server.is_running()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return endpoint;
}

void HttpEndpoint::Stop() {
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
}

StatusOr<std::unique_ptr<HttpEndpoint>> StartFromFlags(
    const Registry* registry, const EndpointFlags& flags) {
  if (flags.port == 0) return std::unique_ptr<HttpEndpoint>();
  GCUSHARE_ASSIGN_OR_RETURN(
      std::unique_ptr<HttpEndpoint> endpoint,
      HttpEndpoint::Start(registry, flags.address, flags.port));
  spdlog::info("metrics on http://{}:{}/metrics", flags.address,
               endpoint->port());
  return endpoint;
}

}  // namespace gcushare::metrics
