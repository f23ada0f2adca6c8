#include "kubectl-plugin/testing/fake_extender.h"

#include <httplib.h>

#include <nlohmann/json.hpp>

#include "base/mutex.h"

namespace gcushare::kubectl_plugin {

FakeExtender::FakeExtender(std::string prefix)
    : prefix_(std::move(prefix)), server_(std::make_unique<httplib::Server>()) {
  server_->Get(".*", [this](const httplib::Request& req,
                            httplib::Response& res) {
    base::MutexLock lock(mu_);
    requests_.push_back(req.path);
    if (fail_status_ != 0) {
      res.status = fail_status_;
      res.set_content(fail_body_, "text/plain");
      return;
    }
    const std::string all = prefix_ + "/inspect";
    if (req.path == all) {
      res.set_content(all_, "application/json");
      return;
    }
    if (req.path.rfind(all + "/", 0) == 0) {
      const std::string node = req.path.substr(all.size() + 1);
      nlohmann::json all = nlohmann::json::parse(all_, nullptr, false);
      if (all.is_object() && all.contains("nodes") && all["nodes"].is_array()) {
        for (const auto& n : all["nodes"]) {
          if (n.value("name", "") == node) {
            nlohmann::json one = {{"nodes", nlohmann::json::array({n})}};
            res.set_content(one.dump(), "application/json");
            return;
          }
        }
      }
      res.status = 404;
      nlohmann::json error = {
          {"error",
           "node " + node + " is not a GCUShare node known to the extender"}};
      res.set_content(error.dump() + "\n", "application/json");
      return;
    }
    res.status = 404;
    res.set_content("HTTP 404\n", "text/plain");
  });
}

FakeExtender::~FakeExtender() {
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

Status FakeExtender::Start() {
  port_ = server_->bind_to_any_port("127.0.0.1");
  if (port_ <= 0) return UnavailableError("fake extender: cannot listen");
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  return Status();
}

std::string FakeExtender::base_url() const {
  return "http://127.0.0.1:" + std::to_string(port_);
}

void FakeExtender::SetNodes(std::string all_json) {
  base::MutexLock lock(mu_);
  all_ = std::move(all_json);
}

void FakeExtender::FailWith(int status, std::string body) {
  base::MutexLock lock(mu_);
  fail_status_ = status;
  fail_body_ = std::move(body);
}

std::vector<std::string> FakeExtender::requests() const {
  base::MutexLock lock(mu_);
  return requests_;
}

}  // namespace gcushare::kubectl_plugin
