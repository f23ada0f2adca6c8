// ExtenderHttpServer: serves ExtenderService over HTTP (cpp-httplib) under
// the prefix /gcushare-scheduler (DESIGN.md "Extender HTTP API"):
//   POST /filter, /prioritize, /bind   kube-scheduler's extender protocol
//   GET  /inspect, /inspect/<node>     usage JSON (vendor manual shape)
//   GET  /version                      the version, plain text
//   GET  /healthz                      200 "ok" once the cache has synced,
//                                      503 before
//   GET  /metrics                      Prometheus text format
// Bodies over max_body_bytes, or that are not the verb's JSON, get 400 with
// a message and change nothing; a body not received within body_timeout
// gets 408 and the connection is closed. Every verb is counted by HTTP code and
// timed (gcushare_extender_requests_total, ..._request_duration_seconds).
//
// Ownership: service and registry are borrowed. Thread-safety: Start/Stop
// from one thread; handlers run on the server's worker threads.
#ifndef GCUSHARE_EXTENDER_HTTP_SERVER_H_
#define GCUSHARE_EXTENDER_HTTP_SERVER_H_

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "extender/extender_service.h"
#include "metrics/registry.h"
#include "status/status.h"

namespace httplib {
class Server;
class ContentReader;
struct Request;
}  // namespace httplib

namespace gcushare::extender {

struct HttpServerOptions {
  std::string address = "0.0.0.0";
  int port = 32766;  // 0: any free port (see port()).
  // kube-scheduler's bodies with nodeCacheCapable (pod + node names) stay
  // far below this; worker_threads x max_body_bytes (plus the parsed form)
  // must fit in the process's memory limit.
  size_t max_body_bytes = size_t{8} << 20;
  int worker_threads = 32;
  // A POST body must arrive whole within this time of its headers (408
  // otherwise), so that a client trickling bytes cannot hold a worker.
  std::chrono::milliseconds body_timeout{5000};
  // A connection that sends nothing for this long is closed.
  std::chrono::milliseconds read_timeout{5000};
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
  // Reads a POST body within body_timeout and max_body_bytes into
  // req.body; the reply to send instead when it cannot.
  std::optional<HttpReply> ReadBody(const httplib::Request& req,
                                    const httplib::ContentReader& reader) const;

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
