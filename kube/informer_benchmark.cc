// Throughput of the watch path: a local cpp-httplib server streams N pod
// watch events (realistic ~2 KB pods; 1 in 10 events adds a pod, the rest
// modify one) to CurlKubeClient + Informer. Prints events/s, seconds, MB/s
// and the process's peak RSS (server included). No assertions.
//
//   bazel run -c opt //kube:informer_benchmark -- [events]
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

#include "kube/curl_kube_client.h"
#include "kube/informer.h"
#include "kube/testing/api_objects.h"
#include "kube/testing/scripted_server.h"

namespace gcushare::kube {
namespace {

using ::gcushare::kube::testing::ChunkFeed;
using ::gcushare::kube::testing::PodList;
using ::gcushare::kube::testing::RealisticPod;
using ::gcushare::kube::testing::ScriptedServer;

// Builds watch lines by splicing a name and resourceVersion into a
// pre-serialized pod, so the server spends little CPU per event.
class EventLines {
 public:
  EventLines() {
    template_ =
        ",\"object\":" + RealisticPod("bench", "@@NAME@@", "@@RV@@").dump() +
        "}";
    line_bytes_ = template_.size() + 20;
  }

  void Append(int index, std::string* out) const {
    const int pods = 1 + index / 10;
    const bool add = index % 10 == 0;
    const std::string name = "pod-" + std::to_string(add ? pods : index % pods);
    const std::string rv = std::to_string(index + 2);
    out->append(add ? "{\"type\":\"ADDED\"" : "{\"type\":\"MODIFIED\"");
    size_t from = 0;
    while (true) {
      const size_t at = template_.find("@@", from);
      if (at == std::string::npos) break;
      out->append(template_, from, at - from);
      const size_t end = template_.find("@@", at + 2);
      const std::string key = template_.substr(at + 2, end - at - 2);
      out->append(key == "NAME" ? name : rv);
      from = end + 2;
    }
    out->append(template_, from, std::string::npos);
    out->push_back('\n');
  }

  size_t line_bytes() const { return line_bytes_; }

 private:
  std::string template_;
  size_t line_bytes_ = 0;
};

class CountingHandler : public InformerHandler {
 public:
  explicit CountingHandler(int target) : target_(target) {}
  void OnAdd(const nlohmann::json&) override { Count(); }
  void OnUpdate(const nlohmann::json&, const nlohmann::json&) override {
    Count();
  }
  void OnDelete(const nlohmann::json&) override { Count(); }
  void Wait() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return count_ >= target_; });
  }

 private:
  void Count() {
    std::lock_guard<std::mutex> lock(mu_);
    if (++count_ >= target_) cv_.notify_all();
  }
  const int target_;
  std::mutex mu_;
  std::condition_variable cv_;
  int count_ = 0;
};

int Run(int events) {
  EventLines lines;
  ScriptedServer server;
  std::atomic<int> watches{0};
  auto idle = std::make_shared<ChunkFeed>();
  server.Handle(
      "GET", "/api/v1/namespaces/bench/pods",
      [&](const httplib::Request& request, httplib::Response& res) {
        if (!request.has_param("watch")) {
          ScriptedServer::Json(res, 200, PodList({}, "1"));
          return;
        }
        if (watches++ > 0) {
          server.Stream(res, idle);  // Later watches stay idle.
          return;
        }
        res.set_chunked_content_provider(
            "application/json", [&lines, events, next = 0](
                                    size_t, httplib::DataSink& sink) mutable {
              std::string batch;
              batch.reserve(70 * 1024);
              while (next < events && batch.size() < 64 * 1024) {
                lines.Append(next++, &batch);
              }
              if (!batch.empty() && !sink.write(batch.data(), batch.size())) {
                return false;
              }
              if (next >= events) sink.done();
              return true;
            });
      });
  server.Start();

  ClientConfig config;
  config.server = server.url();
  auto client = CurlKubeClient::Create(config);
  if (!client.ok()) {
    std::fprintf(stderr, "%s\n", client.status().ToString().c_str());
    return 1;
  }
  CountingHandler handler(events);
  Informer informer(client->get(), Resource::Pods(), "bench", &handler);
  const auto start = std::chrono::steady_clock::now();
  informer.Start();
  handler.Wait();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  informer.Stop();
  idle->Drop();
  server.Stop();

  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double megabytes =
      static_cast<double>(lines.line_bytes()) * events / (1024.0 * 1024.0);
  std::printf("events:          %d (~%zu bytes each, %zu pods stored)\n",
              events, lines.line_bytes(), informer.size());
  std::printf("total seconds:   %.3f\n", seconds);
  std::printf("events/s:        %.0f\n", events / seconds);
  std::printf("MB/s:            %.1f\n", megabytes / seconds);
  std::printf("peak RSS:        %.1f MiB (server included)\n",
              usage.ru_maxrss / 1024.0);
  return 0;
}

}  // namespace
}  // namespace gcushare::kube

int main(int argc, char** argv) {
  const int events = argc > 1 ? std::atoi(argv[1]) : 50000;
  return gcushare::kube::Run(events > 0 ? events : 50000);
}
