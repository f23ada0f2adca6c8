#include "tests/kube_client/watch_tampering_relay.h"

#include <string_view>
#include <utility>

namespace gcushare::kube_client_test {

using kube::testing::ChunkFeed;
using kube::testing::ScriptedServer;

WatchTamperingRelay::WatchTamperingRelay(int upstream_port)
    : upstream_port_(upstream_port) {
  server_.Handle(
      "GET", ".*",
      [this](const httplib::Request& request, httplib::Response& response) {
        if (request.get_param_value("watch") == "true") {
          RelayWatch(request, response);
          return;
        }
        httplib::Client upstream("127.0.0.1", upstream_port_);
        upstream.set_read_timeout(30, 0);
        httplib::Result result = upstream.Get(request.target.c_str());
        if (!result) {
          response.status = 502;
          return;
        }
        ScriptedServer::Json(response, result->status, result->body);
      });
}

WatchTamperingRelay::~WatchTamperingRelay() { Stop(); }

void WatchTamperingRelay::TamperWithNextWatch(std::string line,
                                              size_t after_lines) {
  base::MutexLock lock(mu_);
  next_tamper_ = Tamper{std::move(line), after_lines};
}

int WatchTamperingRelay::Start() { return server_.Start(); }

void WatchTamperingRelay::Stop() {
  stopping_ = true;
  server_.Stop();
  std::vector<std::thread> pumps;
  {
    base::MutexLock lock(mu_);
    pumps.swap(pumps_);
  }
  for (std::thread& pump : pumps) pump.join();
}

void WatchTamperingRelay::RelayWatch(const httplib::Request& request,
                                     httplib::Response& response) {
  auto feed = std::make_shared<ChunkFeed>();
  {
    base::MutexLock lock(mu_);
    std::optional<Tamper> tamper = std::move(next_tamper_);
    next_tamper_.reset();
    pumps_.emplace_back([this, target = request.target,
                         tamper = std::move(tamper),
                         feed] { Pump(target, tamper, feed); });
  }
  server_.Stream(response, feed);
}

void WatchTamperingRelay::Pump(const std::string& target,
                               std::optional<Tamper> tamper,
                               std::shared_ptr<ChunkFeed> feed) {
  size_t lines = 0;
  auto inject_if_due = [&] {
    if (tamper.has_value() && lines == tamper->after_lines) {
      feed->Push(std::move(tamper->line));
      tamper.reset();
    }
  };
  inject_if_due();
  httplib::Client upstream("127.0.0.1", upstream_port_);
  upstream.set_read_timeout(60, 0);
  httplib::Result result =
      upstream.Get(target.c_str(), [&](const char* data, size_t size) {
        if (stopping_.load()) return false;
        std::string_view rest(data, size);
        while (tamper.has_value() && !rest.empty()) {
          // Relay up to the end of the line after which the tamper is due.
          const size_t newline = rest.find('\n');
          if (newline == std::string_view::npos) break;
          feed->Push(std::string(rest.substr(0, newline + 1)));
          rest.remove_prefix(newline + 1);
          ++lines;
          inject_if_due();
        }
        if (!rest.empty()) feed->Push(std::string(rest));
        return true;
      });
  if (result) {
    feed->End();
  } else {
    feed->Drop();
  }
}

}  // namespace gcushare::kube_client_test
