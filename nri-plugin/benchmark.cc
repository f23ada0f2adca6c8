// bazel run -c opt //nri-plugin:benchmark [-- --calls=N --threads=T
//     --stalled-apiserver]
//
// The real gcushare-nri-plugin process against the stand-in runtime over
// the NRI socket: CreateContainer round trips (request out, adjustment
// back) one at a time and from several threads at once, with the p50/p99
// latencies, and the plugin's resident memory. containerd gives a plugin
// 2 s per request; the aim is well under 1 ms.
//
// --stalled-apiserver: the plugin watches its node's pods on the stand-in
// API server (256 pods), which is then stopped with SIGSTOP (it accepts
// connections and never answers) for the whole measurement: the figures
// show that CreateContainer does not wait on the API server (the pods come
// from the watch, marks are queued in the background).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "contract/annotations.h"
#include "testing/files.h"
#include "testing/subprocess.h"
#include "tests/peers/apiserver/testing/apiserver_process.h"
#include "tests/peers/apiserver/testing/test_server.h"
#include "tests/peers/nri_runtime/fixtures.h"
#include "tests/peers/nri_runtime/runtime.h"

namespace rt = ::gcushare::nri_runtime;
using Clock = std::chrono::steady_clock;

namespace {

std::string PluginBinary() {
  if (std::getenv("TEST_SRCDIR") != nullptr) {
    return gcushare::testing::RunfilePath("nri-plugin/gcushare-nri-plugin");
  }
  return "nri-plugin/gcushare-nri-plugin";  // bazel run: cwd is the runfiles.
}

std::string ProcStatus(pid_t pid, const std::string& key) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + ":", 0) == 0) {
      size_t at = line.find_first_not_of(" \t", key.size() + 1);
      return line.substr(at);
    }
  }
  return "?";
}

void Report(const char* what, std::vector<double> us, double wall_s) {
  std::sort(us.begin(), us.end());
  auto pct = [&](double p) {
    return us[std::min(us.size() - 1, static_cast<size_t>(p * us.size()))];
  };
  std::printf(
      "%-28s calls %6zu  p50 %7.1f us  p99 %7.1f us  max %8.1f us  "
      "%8.0f calls/s\n",
      what, us.size(), pct(0.50), pct(0.99), us.back(), us.size() / wall_s);
}

// The command line.
struct Args {
  int calls = 5000;
  int threads = 8;
  bool stalled = false;
};

Args ParseArgs(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--stalled-apiserver") args.stalled = true;
    if (a.rfind("--calls=", 0) == 0) args.calls = std::atoi(a.c_str() + 8);
    if (a.rfind("--threads=", 0) == 0) args.threads = std::atoi(a.c_str() + 10);
  }
  return args;
}

// Eight stand-in card nodes: <dir>/dev/gcu<N> -> /dev/null.
bool MakeCardNodes(const std::string& dir) {
  ::mkdir((dir + "/dev").c_str(), 0755);
  for (int i = 0; i < 8; ++i) {
    std::string path = dir + "/dev/gcu" + std::to_string(i);
    if (::symlink("/dev/null", path.c_str()) != 0) return false;
  }
  return true;
}

// Starts the stand-in API server with the node "bench" and its 256 pods;
// their uids go to `uids`.
bool StartApiserver(gcushare::apiserver::testing::ApiserverProcess* apiserver,
                    std::vector<std::string>* uids) {
  if (!apiserver->Start().ok()) return false;
  // The node with its published layout (the plugin watches it), so that
  // no warning is logged per call (nobody drains the plugin's stderr).
  nlohmann::json cards = nlohmann::json::array();
  for (int i = 0; i < 8; ++i) {
    cards.push_back({{"index", i},
                     {"uuid", "GCU-" + std::to_string(i)},
                     {"memory", 16},
                     {"healthy", true}});
  }
  nlohmann::json node = {{"apiVersion", "v1"},
                         {"kind", "Node"},
                         {"metadata",
                          {{"name", "bench"},
                           {"annotations",
                            {{"enflame.com/gcu-memory-unit", "1"},
                             {"enflame.com/gcu-devices", cards.dump()}}}}}};
  if (gcushare::apiserver::testing::Request(apiserver->port(), "POST",
                                            "/api/v1/nodes", node.dump())
          .status != 201) {
    return false;
  }
  for (int i = 0; i < 256; ++i) {
    nlohmann::json pod = {
        {"apiVersion", "v1"},
        {"kind", "Pod"},
        {"metadata", {{"name", "bench-" + std::to_string(i)}}},
        {"spec",
         {{"nodeName", "bench"},
          {"containers",
           {{{"name", "main"},
             {"image", "x"},
             {"resources",
              {{"limits", {{"enflame.com/gcu-memory", "4"}}}}}}}}}}};
    auto r = gcushare::apiserver::testing::Request(
        apiserver->port(), "POST", "/api/v1/namespaces/default/pods",
        pod.dump());
    if (r.status != 201) return false;
    uids->push_back(r.json["metadata"]["uid"].get<std::string>());
  }
  return true;
}

using Requests =
    std::vector<std::pair<rt::api::PodSandbox, rt::api::Container>>;

// Realistic requests: ~4 KiB each, like containerd's, with a stale card
// node that the plugin must remove. With `uids` (the API server's pods),
// the sandboxes carry them.
Requests MakeRequests(const std::vector<std::string>& uids) {
  Requests requests;
  requests.reserve(256);
  for (int i = 0; i < 256; ++i) {
    gcushare::contract::CardAssignment a;
    a.cards = {static_cast<uint32_t>(i % 8)};
    a.card_memory_units = 16;
    a.request_units = 4;
    a.container_cards["main"] = a.cards;
    auto pod = rt::MakePodSandbox("default", "bench-" + std::to_string(i), i,
                                  gcushare::contract::EncodeAssignment(a));
    if (!uids.empty()) pod.set_uid(uids[i]);
    auto c = rt::MakeContainer(
        pod, "main",
        {rt::CharDevice("/dev/gcu" + std::to_string((i + 1) % 8), 238,
                        (i + 1) % 8)});
    requests.emplace_back(pod, c);
  }
  return requests;
}

// One timed call (microseconds) of request i.
using OneCall = std::function<double(int i)>;

void MeasureSequential(int calls, const OneCall& one) {
  std::vector<double> serial;
  serial.reserve(calls);
  auto w0 = Clock::now();
  for (int i = 0; i < calls; ++i) serial.push_back(one(i));
  Report("sequential", serial,
         std::chrono::duration<double>(Clock::now() - w0).count());
}

void MeasureConcurrent(int calls, int threads, const OneCall& one) {
  std::vector<std::vector<double>> per(threads);
  std::vector<std::thread> pool;
  pool.reserve(threads);
  auto w1 = Clock::now();
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (int i = 0; i < calls / threads; ++i) per[t].push_back(one(i + t));
    });
  }
  for (auto& th : pool) th.join();
  std::vector<double> all;
  for (auto& v : per) all.insert(all.end(), v.begin(), v.end());
  char label[64];
  std::snprintf(label, sizeof(label), "%d concurrent callers", threads);
  Report(label, all, std::chrono::duration<double>(Clock::now() - w1).count());
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = ParseArgs(argc, argv);
  const int calls = args.calls;
  const int threads = args.threads;
  const bool stalled = args.stalled;
  std::string dir = gcushare::testing::MakeTempDir();
  struct RemoveAtExit {
    std::string dir;
    ~RemoveAtExit() {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  } cleanup{dir};
  if (!MakeCardNodes(dir)) return 1;
  rt::RuntimeOptions options;
  options.socket_path = dir + "/nri.sock";
  auto runtime = rt::NriRuntime::Listen(options);
  if (!runtime.ok()) {
    std::fprintf(stderr, "%s\n", runtime.status().ToString().c_str());
    return 1;
  }
  // With --stalled-apiserver: the node's pods on the stand-in API server.
  gcushare::apiserver::testing::ApiserverProcess apiserver;
  std::vector<std::string> uids;
  std::vector<std::string> plugin_args = {
      PluginBinary(), "--nri-socket=" + options.socket_path,
      "--dev-root=" + dir, "--log-dir=" + dir, "--log-level=warn"};
  if (stalled) {
    if (!StartApiserver(&apiserver, &uids)) return 1;
    gcushare::testing::WriteFileOrDie(
        dir + "/kubeconfig",
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n"
        "    server: " +
            apiserver.url() +
            "\ncontexts:\n- name: x\n  context:\n    cluster: c\n"
            "current-context: x\n");
    plugin_args.emplace_back("--kubeconfig=" + dir + "/kubeconfig");
    plugin_args.emplace_back("--node-name=bench");
  }
  gcushare::testing::ChildProcess plugin;
  auto started = plugin.Start(plugin_args);
  if (!started.ok()) {
    std::fprintf(stderr, "%s\n", started.ToString().c_str());
    return 1;
  }
  auto conn = (*runtime)->AcceptPlugin(std::chrono::seconds(30));
  if (!conn.ok()) {
    std::fprintf(stderr, "%s\n%s\n", conn.status().ToString().c_str(),
                 plugin.output().c_str());
    return 1;
  }
  std::printf("plugin pid %d, RSS after registration: %s (peak %s)\n",
              plugin.pid(), ProcStatus(plugin.pid(), "VmRSS").c_str(),
              ProcStatus(plugin.pid(), "VmHWM").c_str());

  const Requests requests = MakeRequests(uids);
  std::printf("request size: %zu bytes\n",
              rt::api::CreateContainerRequest().ByteSizeLong() +
                  requests[0].first.ByteSizeLong() +
                  requests[0].second.ByteSizeLong());
  auto one = [&](int i) -> double {
    const auto& [pod, c] = requests[i % requests.size()];
    auto t0 = Clock::now();
    auto r = (*conn)->CreateContainer(pod, c);
    auto t1 = Clock::now();
    if (!r.ok() || r->adjust().linux().devices_size() != 2) {
      std::fprintf(
          stderr, "bad answer: %s\nplugin log:\n%s\n",
          r.status().ToString().c_str(),
          gcushare::testing::ReadFileOrEmpty(dir + "/gcushare-nri-plugin.log")
              .c_str());
      std::exit(1);
    }
    return std::chrono::duration<double, std::micro>(t1 - t0).count();
  };
  for (int i = 0; i < 500; ++i) one(i);  // Warm-up (the watch has synced).
  if (stalled) {
    if (!apiserver.Signal(SIGSTOP).ok()) return 1;
    std::printf("stand-in API server stopped (SIGSTOP) for the measurement\n");
  }
  MeasureSequential(calls, one);
  MeasureConcurrent(calls, threads, one);

  std::printf("plugin RSS after %d calls: %s (peak %s)\n",
              calls + calls / threads * threads + 500,
              ProcStatus(plugin.pid(), "VmRSS").c_str(),
              ProcStatus(plugin.pid(), "VmHWM").c_str());
  if (stalled) (void)apiserver.Signal(SIGCONT);
  (void)plugin.Signal(SIGTERM);
  auto done = plugin.Wait(std::chrono::seconds(10));
  return done.ok() && done->exit_code == 0 ? 0 : 1;
}
