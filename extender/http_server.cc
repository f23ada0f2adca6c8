#include "extender/http_server.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "contract/names.h"
#include "daemon/version.h"

namespace gcushare::extender {
namespace {

std::string Path(std::string_view suffix) {
  return std::string(contract::kExtenderPathPrefix) + std::string(suffix);
}

void Reply(httplib::Response& res, const HttpReply& reply) {
  res.status = reply.status;
  res.set_content(reply.body, reply.content_type.c_str());
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
      server_(std::make_unique<httplib::Server>()) {
  Route();
}

ExtenderHttpServer::~ExtenderHttpServer() { Stop(); }

void ExtenderHttpServer::Route() {
  httplib::Server& s = *server_;
  int threads = options_.worker_threads;
  s.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  s.set_payload_max_length(options_.max_body_bytes);
  const auto read_us = std::chrono::duration_cast<std::chrono::microseconds>(
                           options_.read_timeout)
                           .count();
  s.set_read_timeout(read_us / 1000000, read_us % 1000000);
  s.set_keep_alive_timeout(std::max<time_t>(1, read_us / 1000000));
  // No Nagle delay between header and body writes (kube-scheduler waits).
  s.set_tcp_nodelay(true);
  const size_t max_body = options_.max_body_bytes;
  s.set_error_handler(httplib::Server::HandlerWithResponse(
      [max_body](const httplib::Request&, httplib::Response& res) {
        if (res.status == 413) {
          // Too large for any real kube-scheduler request: a client error like
          // any other malformed body.
          res.status = 400;
          res.set_content(
              "request body over " + std::to_string(max_body) + " bytes\n",
              "text/plain");
          return httplib::Server::HandlerResponse::Handled;
        }
        if (res.body.empty()) {
          res.set_content("HTTP " + std::to_string(res.status) + "\n",
                          "text/plain");
        }
        return httplib::Server::HandlerResponse::Handled;
      }));

  auto timed = [this](std::string verb, auto handler) {
    auto& histogram = latency_.WithLabels({verb});
    return [this, verb, handler, &histogram](const httplib::Request& req,
                                             httplib::Response& res) {
      auto start = std::chrono::steady_clock::now();
      HttpReply reply = handler(req);
      Reply(res, reply);
      histogram.Observe(std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start)
                            .count());
      requests_.WithLabels({verb, std::to_string(reply.status)}).Increment();
    };
  };
  // POST bodies are read here, not by httplib, so that a body trickling in
  // is cut off at its deadline instead of holding a worker.
  auto post = [this, timed](std::string verb, auto verb_handler) {
    return [this, handler = timed(
                      verb,
                      [this, verb_handler](const httplib::Request& req) {
                        return verb_handler(req.body);
                      })](const httplib::Request& req, httplib::Response& res,
                          const httplib::ContentReader& reader) {
      std::optional<HttpReply> refused = ReadBody(req, reader);
      if (refused.has_value()) {
        Reply(res, *refused);
        res.set_header("Connection", "close");
        return;
      }
      handler(req, res);
    };
  };
  s.Post(Path("/filter"), post("filter", [this](const std::string& body) {
           return service_->Filter(body);
         }));
  s.Post(Path("/prioritize"),
         post("prioritize", [this](const std::string& body) {
           return service_->Prioritize(body);
         }));
  s.Post(Path("/bind"), post("bind", [this](const std::string& body) {
           return service_->Bind(body);
         }));
  s.Get(Path("/inspect"), timed("inspect", [this](const httplib::Request&) {
          return HttpReply{200, service_->InspectAll().dump(2) + "\n"};
        }));
  s.Get(Path(R"(/inspect/([^/]+))"),
        timed("inspect", [this](const httplib::Request& r) {
          std::string node = r.matches[1];
          auto view = service_->InspectNode(node);
          if (!view.has_value()) {
            nlohmann::json error = {
                {"error", "node " + node +
                              " is not a GCUShare node known to the extender"}};
            return HttpReply{404, error.dump() + "\n"};
          }
          return HttpReply{200, view->dump(2) + "\n"};
        }));
  s.Get(Path("/version"), [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(Version()), "text/plain");
  });
  auto ready = options_.ready;
  s.Get(Path("/healthz"),
        [ready](const httplib::Request&, httplib::Response& res) {
          if (ready()) {
            res.set_content("ok\n", "text/plain");
          } else {
            res.status = 503;
            res.set_content("cache not synced yet\n", "text/plain");
          }
        });
  s.Get(Path("/metrics"),
        [this](const httplib::Request&, httplib::Response& res) {
          res.set_content(registry_->Render(),
                          std::string(metrics::Registry::kContentType).c_str());
        });
}

std::optional<HttpReply> ExtenderHttpServer::ReadBody(
    const httplib::Request& req, const httplib::ContentReader& reader) const {
  // The handler got the Request by const reference, but httplib owns it and
  // it is ours for this call: the body is kept where handlers look for it.
  std::string& body = const_cast<httplib::Request&>(req).body;
  const auto deadline =
      std::chrono::steady_clock::now() + options_.body_timeout;
  bool too_slow = false;
  bool too_big = false;
  const bool complete = reader([&](const char* data, size_t length) {
    if (std::chrono::steady_clock::now() > deadline) {
      too_slow = true;
      return false;
    }
    if (body.size() + length > options_.max_body_bytes) {
      too_big = true;
      return false;
    }
    body.append(data, length);
    return true;
  });
  if (too_slow) {
    return HttpReply{408,
                     "request body not received within " +
                         std::to_string(options_.body_timeout.count()) +
                         " ms\n",
                     "text/plain"};
  }
  if (too_big) {
    return HttpReply{400,
                     "request body over " +
                         std::to_string(options_.max_body_bytes) + " bytes\n",
                     "text/plain"};
  }
  if (!complete) {
    return HttpReply{400, "request body incomplete\n", "text/plain"};
  }
  return std::nullopt;
}

Status ExtenderHttpServer::Start() {
  int port = options_.port;
  if (port == 0) {
    port = server_->bind_to_any_port(options_.address.c_str());
  } else if (!server_->bind_to_port(options_.address.c_str(), port)) {
    port = -1;
  }
  if (port <= 0) {
    return UnavailableError("cannot listen on " + options_.address + ":" +
                            std::to_string(options_.port) +
                            " (port in use, or not allowed)");
  }
  port_ = port;
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  // The socket already listens: connections queue until the loop runs.
  spdlog::info("serving {} on http://{}:{}", contract::kExtenderPathPrefix,
               options_.address, port_);
  return OkStatus();
}

void ExtenderHttpServer::Stop() {
  if (!thread_.joinable()) return;
  server_->stop();
  thread_.join();
}

}  // namespace gcushare::extender
