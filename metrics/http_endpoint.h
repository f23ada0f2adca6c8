// HttpEndpoint: a small HTTP server that answers GET /metrics with a
// Registry's Prometheus text, for the daemons that serve nothing else over
// HTTP (the device plugin and the NRI plugin). Any other path is 404.
//
// The command line: --metrics-port (0, the default, serves nothing: these
// daemons run on the host network, so an open port is the node's port) and
// --metrics-address (default 0.0.0.0, so Prometheus reaches the pod's IP,
// which is the node's; 127.0.0.1 keeps it on the node).
//
// Ownership: borrows the registry, which must outlive the endpoint; owns
// its server thread. Thread-safety: scrapes are served on the endpoint's
// own threads (Registry::Render() is thread-safe); Stop() from one thread.
// Failure: Start() returns Unavailable when the address cannot be bound;
// nothing is left running then.
#ifndef GCUSHARE_METRICS_HTTP_ENDPOINT_H_
#define GCUSHARE_METRICS_HTTP_ENDPOINT_H_

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <thread>

#include "metrics/registry.h"
#include "status/status.h"

namespace httplib {
class Server;
}

namespace gcushare::metrics {

struct EndpointFlags {
  int port = 0;  // 0: no endpoint.
  std::string address = "0.0.0.0";
};

// Adds --metrics-port and --metrics-address.
void AddEndpointFlags(CLI::App& app, EndpointFlags* flags);

class HttpEndpoint {
 public:
  // Listens on address:port (port 0: any free port, see port()) and serves
  // in the background.
  static StatusOr<std::unique_ptr<HttpEndpoint>> Start(
      const Registry* registry, const std::string& address, int port);
  ~HttpEndpoint();  // Stop()s.
  HttpEndpoint(const HttpEndpoint&) = delete;
  HttpEndpoint& operator=(const HttpEndpoint&) = delete;

  int port() const { return port_; }
  // Stops serving and joins the thread; idempotent.
  void Stop();

 private:
  explicit HttpEndpoint(const Registry* registry);

  const Registry* const registry_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
};

// Starts the endpoint the flags ask for: null when --metrics-port is 0.
// Logs the URL it serves.
StatusOr<std::unique_ptr<HttpEndpoint>> StartFromFlags(
    const Registry* registry, const EndpointFlags& flags);

}  // namespace gcushare::metrics

#endif  // GCUSHARE_METRICS_HTTP_ENDPOINT_H_
