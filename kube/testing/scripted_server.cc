#include "kube/testing/scripted_server.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::kube::testing {

std::string RecordedRequest::Param(const std::string& key) const {
  auto it = params.find(key);
  return it == params.end() ? "" : it->second;
}

bool RecordedRequest::HasParam(const std::string& key) const {
  return params.find(key) != params.end();
}

std::string RecordedRequest::Header(const std::string& key) const {
  auto it = headers.find(key);
  return it == headers.end() ? "" : it->second;
}

void ChunkFeed::Push(std::string chunk) {
  base::MutexLock lock(mu_);
  steps_.emplace_back(Step::kChunk, std::move(chunk));
  cv_.NotifyAll();
}

void ChunkFeed::PushBytewise(const std::string& text) {
  base::MutexLock lock(mu_);
  for (char c : text) steps_.emplace_back(Step::kChunk, std::string(1, c));
  cv_.NotifyAll();
}

void ChunkFeed::End() {
  base::MutexLock lock(mu_);
  steps_.emplace_back(Step::kEnd, "");
  cv_.NotifyAll();
}

void ChunkFeed::Drop() {
  base::MutexLock lock(mu_);
  steps_.emplace_back(Step::kDrop, "");
  cv_.NotifyAll();
}

ChunkFeed::Step ChunkFeed::Next(std::string* chunk,
                                std::chrono::milliseconds wait) {
  base::MutexLock lock(mu_);
  if (!cv_.WaitFor(lock, wait,
                   [this]() REQUIRES(mu_) { return !steps_.empty(); })) {
    return Step::kNone;
  }
  auto [step, data] = std::move(steps_.front());
  steps_.pop_front();
  *chunk = std::move(data);
  return step;
}

ScriptedServer::ScriptedServer()
    : server_(std::make_unique<httplib::Server>()) {
  // Small, so that keep-alive connections do not hold threads for long.
  server_->set_keep_alive_timeout(1);
  // Headers and body go out in separate writes: no Nagle delay between.
  server_->set_tcp_nodelay(true);
}

ScriptedServer::ScriptedServer(const ServerTls& tls)
    : server_(std::make_unique<httplib::SSLServer>(
          tls.cert_file.c_str(), tls.key_file.c_str(),
          tls.client_ca_file.empty() ? nullptr : tls.client_ca_file.c_str())),
      tls_(true) {
  if (!server_->is_valid()) {
    std::fprintf(stderr, "ScriptedServer: bad TLS files %s / %s\n",
                 tls.cert_file.c_str(), tls.key_file.c_str());
    std::abort();
  }
  server_->set_keep_alive_timeout(1);
  server_->set_tcp_nodelay(true);
}

ScriptedServer::~ScriptedServer() { Stop(); }

void ScriptedServer::Record(const httplib::Request& request) {
  RecordedRequest recorded;
  recorded.method = request.method;
  recorded.path = request.path;
  for (const auto& [key, value] : request.params) {
    recorded.params.emplace(key, value);
  }
  recorded.headers = request.headers;
  recorded.body = request.body;
  base::MutexLock lock(mu_);
  requests_.push_back(std::move(recorded));
  requests_cv_.NotifyAll();
}

void ScriptedServer::Handle(const std::string& method,
                            const std::string& pattern,
                            httplib::Server::Handler handler) {
  auto recorded = [this, handler = std::move(handler)](
                      const httplib::Request& request,
                      httplib::Response& response) {
    Record(request);
    handler(request, response);
  };
  if (method == "GET") {
    server_->Get(pattern, recorded);
  } else if (method == "POST") {
    server_->Post(pattern, recorded);
  } else if (method == "PUT") {
    server_->Put(pattern, recorded);
  } else if (method == "PATCH") {
    server_->Patch(pattern, recorded);
  } else if (method == "DELETE") {
    server_->Delete(pattern, recorded);
  } else {
    std::fprintf(stderr, "ScriptedServer: unsupported method %s\n",
                 method.c_str());
    std::abort();
  }
}

int ScriptedServer::Start(int port) {
  if (port == 0) {
    port_ = server_->bind_to_any_port("127.0.0.1");
  } else {
    // The old listener may linger briefly in the kernel; retry the bind.
    for (int attempt = 0; attempt < 200; ++attempt) {
      if (server_->bind_to_port("127.0.0.1", port)) {
        port_ = port;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  }
  if (port_ <= 0) {
    std::fprintf(stderr, "ScriptedServer: cannot bind 127.0.0.1:%d\n", port);
    std::abort();
  }
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  // stop() is a no-op until the listen loop runs: wait for it, so that a
  // quick Stop() cannot leave the loop running forever.
  while (!server_->is_running()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return port_;
}

void ScriptedServer::Stop() {
  if (stopping_.exchange(true)) return;
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string ScriptedServer::url() const {
  return (tls_ ? "https://127.0.0.1:" : "http://127.0.0.1:") +
         std::to_string(port_);
}

std::vector<RecordedRequest> ScriptedServer::requests() const {
  base::MutexLock lock(mu_);
  return requests_;
}

std::vector<RecordedRequest> ScriptedServer::RequestsTo(
    const std::string& method, const std::string& path) const {
  std::vector<RecordedRequest> matching;
  for (RecordedRequest& request : requests()) {
    if (request.method == method && request.path == path) {
      matching.push_back(std::move(request));
    }
  }
  return matching;
}

bool ScriptedServer::WaitForRequests(
    std::function<bool(const RecordedRequest&)> match, size_t count,
    std::chrono::milliseconds timeout) {
  base::MutexLock lock(mu_);
  return requests_cv_.WaitFor(lock, timeout, [&]() REQUIRES(mu_) {
    size_t matched = 0;
    for (const RecordedRequest& request : requests_) {
      if (match(request)) ++matched;
    }
    return matched >= count;
  });
}

void ScriptedServer::Stream(httplib::Response& response,
                            const std::shared_ptr<ChunkFeed>& feed) {
  response.status = 200;
  response.set_chunked_content_provider(
      "application/json",
      [this, feed](size_t /*offset*/, httplib::DataSink& sink) {
        while (true) {
          std::string chunk;
          switch (feed->Next(&chunk, std::chrono::milliseconds(20))) {
            case ChunkFeed::Step::kChunk:
              return sink.write(chunk.data(), chunk.size());
            case ChunkFeed::Step::kEnd:
              sink.done();
              return true;
            case ChunkFeed::Step::kDrop:
              return false;
            case ChunkFeed::Step::kNone:
              if (stopping_.load() || !sink.is_writable()) return false;
              break;
          }
        }
      });
}

void ScriptedServer::Json(httplib::Response& response, int status,
                          const std::string& body) {
  response.status = status;
  response.set_content(body, "application/json");
}

}  // namespace gcushare::kube::testing
