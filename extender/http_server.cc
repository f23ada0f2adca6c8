#include "extender/http_server.h"

#include <spdlog/spdlog.h>
#include <time.h>

#include <chrono>
#include <string_view>

#include "contract/names.h"
#include "daemon/version.h"

namespace gcushare::extender {

using http::FramedHttpOptions;
using http::FramedHttpServer;
using http::HttpRequest;
using http::HttpResponse;

namespace {

HttpResponse From(const HttpReply& reply) {
  return HttpResponse{reply.status, reply.body, reply.content_type};
}

HttpResponse Text(int status, std::string body) {
  return HttpResponse{status, std::move(body), "text/plain"};
}

FramedHttpOptions Framing(const HttpServerOptions& o) {
  FramedHttpOptions f;
  f.address = o.address;
  f.port = o.port;
  f.worker_threads = o.worker_threads;
  f.limits.max_body_bytes = o.max_body_bytes;
  f.head_timeout = o.head_timeout;
  f.body_timeout = o.body_timeout;
  f.read_timeout = o.read_timeout;
  f.max_connections = o.max_connections;
  f.max_buffered_bytes = o.max_buffered_bytes;
  return f;
}

// CPU time of the calling thread, in seconds (0 if the clock is refused).
double ThreadCpuSeconds() {
  timespec now{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) return 0;
  return static_cast<double>(now.tv_sec) + now.tv_nsec * 1e-9;
}

}  // namespace

ExtenderHttpServer::ExtenderHttpServer(ExtenderService* service,
                                       metrics::Registry* registry,
                                       HttpServerOptions options)
    : service_(service),
      registry_(registry),
      options_(std::move(options)),
      requests_(registry->AddCounter(
          "gcushare_extender_requests_total",
          "HTTP requests served, by verb and HTTP status code.",
          {"verb", "code"})),
      latency_(registry->AddHistogram(
          "gcushare_extender_request_duration_seconds",
          "Time to answer a request, by verb (server side).", {"verb"},
          metrics::ExponentialBuckets(0.00005, 2, 18))),
      cpu_(registry->AddCounter(
          "gcushare_extender_request_cpu_seconds_total",
          "CPU time the handlers spent answering requests (the serving "
          "thread's, from the body read to the reply built), by verb.",
          {"verb"})),
      refused_(registry->AddCounter(
          "gcushare_extender_refused_requests_total",
          "Requests refused before any handler saw them (slow, too large, "
          "malformed or over a server limit), by HTTP status code.",
          {"code"})),
      open_connections_(
          registry->AddGauge("gcushare_extender_open_connections",
                             "HTTP connections open (at the last scrape).")),
      server_(std::make_unique<FramedHttpServer>(
          Framing(options_),
          [this](const HttpRequest& req) { return Route(req); },
          [this](int status) {
            refused_.WithLabels({std::to_string(status)}).Increment();
          })) {}

ExtenderHttpServer::~ExtenderHttpServer() { Stop(); }

HttpResponse ExtenderHttpServer::Timed(
    const std::string& verb, const std::function<HttpReply()>& handler) {
  auto start = std::chrono::steady_clock::now();
  const double cpu_start = ThreadCpuSeconds();
  HttpReply reply = handler();
  cpu_.WithLabels({verb}).Increment(ThreadCpuSeconds() - cpu_start);
  latency_.WithLabels({verb}).Observe(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count());
  requests_.WithLabels({verb, std::to_string(reply.status)}).Increment();
  return From(reply);
}

HttpResponse ExtenderHttpServer::Route(const HttpRequest& req) {
  std::string_view path = req.path;
  const std::string_view prefix = contract::kExtenderPathPrefix;
  if (path.substr(0, prefix.size()) != prefix) {
    return Text(404, "HTTP 404\n");
  }
  path.remove_prefix(prefix.size());
  const bool post = req.method == "POST";
  const bool get = req.method == "GET";
  if (path == "/filter" || path == "/prioritize" || path == "/bind" ||
      path == "/plain/prioritize") {
    if (!post) return Text(405, "use POST\n");
    const std::string verb(path.substr(1));
    return Timed(verb, [this, &verb, &req] {
      // Before its first sync (a restart) the cache knows no pod: every
      // card would look free and be handed out again. kube-scheduler
      // retries the pod.
      if (!options_.ready()) return HttpReply{503, "cache not synced yet\n"};
      if (verb == "filter") return service_->Filter(req.body);
      if (verb == "prioritize") return service_->Prioritize(req.body);
      if (verb == "plain/prioritize") {
        return service_->PrioritizePlain(req.body);
      }
      if (options_.bind) {
        auto by = req.headers.find("x-gcushare-forwarded-by");
        return options_.bind(req.body,
                             by == req.headers.end() ? "" : by->second);
      }
      return service_->Bind(req.body);
    });
  }
  constexpr std::string_view kInspectNode = "/inspect/";
  const bool inspect_node =
      path.substr(0, kInspectNode.size()) == kInspectNode &&
      path.size() > kInspectNode.size() &&
      path.find('/', kInspectNode.size()) == std::string_view::npos;
  if (path == "/inspect" || inspect_node || path == "/version" ||
      path == "/healthz" || path == "/metrics") {
    if (!get) return Text(405, "use GET\n");
  }
  if (path == "/inspect") {
    return Timed("inspect", [this] {
      return HttpReply{200, service_->InspectAll().dump(2) + "\n"};
    });
  }
  if (inspect_node && path == "/inspect/leader" && options_.role) {
    return Timed("inspect", [this] {
      return HttpReply{200, options_.role().dump(2) + "\n"};
    });
  }
  if (inspect_node) {
    const std::string node(path.substr(kInspectNode.size()));
    return Timed("inspect", [this, &node] {
      auto view = service_->InspectNode(node);
      if (!view.has_value()) {
        nlohmann::json error = {
            {"error",
             "node " + node + " is not a GCUShare node known to the extender"}};
        return HttpReply{404, error.dump() + "\n"};
      }
      return HttpReply{200, view->dump(2) + "\n"};
    });
  }
  if (path == "/version") return Text(200, std::string(Version()));
  if (path == "/healthz") {
    if (options_.draining && options_.draining()) {
      return Text(503, "shutting down\n");
    }
    return options_.ready() ? Text(200, "ok\n")
                            : Text(503, "cache not synced yet\n");
  }
  if (path == "/metrics") {
    open_connections_.Get().Set(
        static_cast<double>(server_->open_connections()));
    return HttpResponse{200, registry_->Render(),
                        std::string(metrics::Registry::kContentType)};
  }
  return Text(404, "HTTP 404\n");
}

Status ExtenderHttpServer::Start() {
  GCUSHARE_RETURN_IF_ERROR(server_->Start());
  spdlog::info("serving {} on http://{}:{}", contract::kExtenderPathPrefix,
               options_.address, server_->port());
  return OkStatus();
}

void ExtenderHttpServer::Stop() { server_->Stop(); }

}  // namespace gcushare::extender
