// ExtenderHttpServer: serves ExtenderService over HTTP (cpp-httplib) under
// the prefix /gcushare-scheduler (DESIGN.md "Extender HTTP API"):
//   POST /filter, /prioritize, /bind   kube-scheduler's extender protocol
//   GET  /inspect, /inspect/<node>     usage JSON (vendor manual shape)
//   GET  /version                      the version, plain text
//   GET  /healthz                      200 "ok" once the cache has synced,
//                                      503 before
//   GET  /metrics                      Prometheus text format
// Bodies over 64 MiB, or that are not the verb's JSON, get 400 with a
// message and change nothing. Every verb is counted by HTTP code and timed
// (gcushare_extender_requests_total, ..._request_duration_seconds).
//
// Ownership: service and registry are borrowed. Thread-safety: Start/Stop
// from one thread; handlers run on the server's worker threads.
#ifndef GCUSHARE_EXTENDER_HTTP_SERVER_H_
#define GCUSHARE_EXTENDER_HTTP_SERVER_H_

#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "extender/extender_service.h"
#include "metrics/registry.h"
#include "status/status.h"

namespace httplib {
class Server;
}

namespace gcushare::extender {

struct HttpServerOptions {
  std::string address = "0.0.0.0";
  int port = 32766;  // 0: any free port (see port()).
  size_t max_body_bytes = size_t{64} << 20;
  int worker_threads = 32;
  // Whether the cache has synced (for /healthz).
  std::function<bool()> ready = [] { return true; };
};

class ExtenderHttpServer {
 public:
  ExtenderHttpServer(ExtenderService* service, metrics::Registry* registry,
                     HttpServerOptions options);
  ~ExtenderHttpServer();  // Stop()s.

  // Binds and starts serving on a background thread. Unavailable naming the
  // address when the port cannot be bound.
  Status Start();
  void Stop();
  int port() const { return port_; }

 private:
  void Route();

  ExtenderService* const service_;
  metrics::Registry* const registry_;
  const HttpServerOptions options_;
  metrics::Family<metrics::Counter>& requests_;
  metrics::Family<metrics::Histogram>& latency_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_HTTP_SERVER_H_
