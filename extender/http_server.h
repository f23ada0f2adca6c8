// ExtenderHttpServer: serves ExtenderService over HTTP (cpp-httplib) under
// the prefix /gcushare-scheduler (docs/contracts.md "Extender HTTP API"):
//   POST /filter, /prioritize, /bind   kube-scheduler's extender protocol
//   POST /plain/prioritize             the plain-pod entry's prioritize
//   GET  /inspect, /inspect/<node>     usage JSON (vendor manual shape)
//   GET  /inspect/leader               this replica's leader-election role
//                                      (with HttpServerOptions::role)
//   GET  /version                      the version, plain text
//   GET  /healthz                      200 "ok" once the cache has synced,
//                                      503 before (the three verbs too)
//   GET  /metrics                      Prometheus text format
// Requests are framed by FramedHttpServer (http/framed_http_server.h):
// workers see only whole requests, so a client trickling its head or body
// holds no worker; the limits there answer 408/411/413/431/503 and close.
// Bodies that are not the verb's JSON get 400 with a message and change
// nothing. Every verb is counted by HTTP code, timed and its handlers' CPU
// summed (gcushare_extender_requests_total, ..._request_duration_seconds,
// ..._request_cpu_seconds_total); requests
// refused by the framing are counted by code
// (gcushare_extender_refused_requests_total).
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
#include <string_view>

#include "extender/extender_service.h"
#include "http/framed_http_server.h"
#include "metrics/registry.h"
#include "status/status.h"

namespace gcushare::extender {

struct HttpServerOptions {
  std::string address = "0.0.0.0";
  int port = 32766;  // 0: any free port (see port()).
  // kube-scheduler's bodies with nodeCacheCapable (pod + node names) stay
  // far below this.
  size_t max_body_bytes = size_t{8} << 20;
  int worker_threads = 32;
  // A request head must arrive whole within head_timeout of its first byte,
  // and its body within body_timeout of the head (408 otherwise).
  std::chrono::milliseconds head_timeout{5000};
  std::chrono::milliseconds body_timeout{5000};
  // A connection that sends nothing for this long is closed (408 when a
  // request was under way); an answer not taken within it is dropped.
  std::chrono::milliseconds read_timeout{5000};
  // Open connections beyond this get 503.
  size_t max_connections = 512;
  // Request bytes buffered (declared bodies counted whole) plus answers
  // not yet written, over all connections; a request that would pass it
  // gets 503. With the parsed form of the bodies being handled, this bounds
  // the server's memory (docs/operations.md "A request is hostile or slow").
  size_t max_buffered_bytes = size_t{32} << 20;
  // Whether the cache has synced (/healthz; until then filter,
  // prioritize and bind answer 503 and change nothing).
  std::function<bool()> ready = [] { return true; };
  // Optional: true once the process is stopping; /healthz then answers 503
  // (the readiness probe takes the replica out of the Service) while every
  // verb goes on answering (docs/ha.md "What a failure costs").
  std::function<bool()> draining;
  // Optional (several replicas, docs/ha.md): answers /bind instead of the
  // service, given the body and the X-GCUShare-Forwarded-By header ("" when
  // absent); and the JSON served at GET /inspect/leader (404 when unset).
  std::function<HttpReply(std::string_view body, std::string_view forwarded_by)>
      bind;
  std::function<nlohmann::ordered_json()> role;
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
  int port() const { return server_->port(); }

 private:
  // The answer to one whole request.
  http::HttpResponse Route(const http::HttpRequest& req);
  // Runs `handler`, counting and timing it under `verb`.
  http::HttpResponse Timed(const std::string& verb,
                           const std::function<HttpReply()>& handler);

  ExtenderService* const service_;
  metrics::Registry* const registry_;
  const HttpServerOptions options_;
  metrics::Family<metrics::Counter>& requests_;
  metrics::Family<metrics::Histogram>& latency_;
  metrics::Family<metrics::Counter>& cpu_;
  metrics::Family<metrics::Counter>& refused_;
  metrics::Family<metrics::Gauge>& open_connections_;
  std::unique_ptr<http::FramedHttpServer> server_;
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_HTTP_SERVER_H_
