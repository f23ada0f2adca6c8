#include "extender/benchmarks/scheduler_driver.h"

#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>

#include "contract/names.h"
#include "extender/testing/scale_cluster.h"
#include "placement/card_allocator.h"

namespace gcushare::extender {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
using placement::kInsufficientMemoryReason;

// What one scheduler of DriveCycles saw: its latencies per verb (filter,
// prioritize, bind) and its counts (as in Cycles).
struct SchedulerTally {
  std::vector<double> times[3];
  int cycles = 0;
  int retries = 0;
  int unschedulable = 0;
  std::vector<std::string> refusals;
};

// POSTs `body` to `path`, adding the latency to `times`; the answer's body
// ("" when none came).
std::string TimedPost(httplib::Client* client, const std::string& path,
                      const std::string& body, std::vector<double>* times) {
  auto t0 = Clock::now();
  auto res = client->Post(path, body, "application/json");
  times->push_back(
      std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  return res ? res->body : std::string();
}

// The host with the best score of a prioritize answer (the first of equal
// ones); "" when there is none.
std::string BestHost(const std::string& answer) {
  const json scores = json::parse(answer, nullptr, false);
  std::string best;
  int64_t best_score = -1;
  if (scores.is_array()) {
    for (const json& host : scores) {
      if (host.value("Score", int64_t{-1}) > best_score) {
        best_score = host.value("Score", int64_t{-1});
        best = host.value("Host", "");
      }
    }
  }
  return best;
}

// The scheduling cycles of pod `p` (DriveCycles): filter with the next
// window of candidates, prioritize, bind to the best; again after a lost
// race (at most 3 times). Failures that are not the pod's being
// unschedulable count in `failures`.
void SchedulePod(httplib::Client* client, const json& p, int nodes,
                 std::atomic<int>* next_start, std::atomic<int>* failures,
                 SchedulerTally* tally) {
  const std::string prefix(contract::kExtenderPathPrefix);
  const std::string pod_text = p.dump();
  for (int attempt = 0;; ++attempt) {
    ++tally->cycles;
    const int start = next_start->fetch_add(kCandidates) % nodes;
    std::vector<std::string> window;
    window.reserve(std::min(kCandidates, nodes));
    for (int k = 0; k < kCandidates && k < nodes; ++k) {
      window.push_back(testing::ScaleNodeName((start + k) % nodes));
    }
    const std::optional<std::vector<std::string>> passed = FilterNodeNames(
        TimedPost(client, prefix + "/filter", ArgsBody(pod_text, window),
                  &tally->times[0]));
    if (!passed.has_value() || passed->empty()) {
      // No candidate holds it (whole cards, when every card of the
      // cluster is in use): kube-scheduler marks it unschedulable.
      if (!passed.has_value()) ++*failures;
      ++tally->unschedulable;
      break;
    }
    const std::string best =
        BestHost(TimedPost(client, prefix + "/prioritize",
                           ArgsBody(pod_text, *passed), &tally->times[1]));
    if (best.empty()) {
      ++*failures;
      break;
    }
    json bind = {{"PodName", p["metadata"]["name"]},
                 {"PodNamespace", p["metadata"]["namespace"]},
                 {"PodUID", p["metadata"]["uid"]},
                 {"Node", best}};
    const json answer = json::parse(
        TimedPost(client, prefix + "/bind", bind.dump(), &tally->times[2]),
        nullptr, false);
    const std::string error =
        answer.is_object() ? answer.value("Error", "?") : "no answer";
    if (error.empty()) break;
    if (error.find(kInsufficientMemoryReason) != std::string::npos &&
        attempt < 3) {
      ++tally->retries;
      continue;
    }
    ++*failures;
    std::string refusal = p["metadata"]["name"].get<std::string>();
    refusal += " -> ";
    refusal += best;
    refusal += ": ";
    refusal += error;
    tally->refusals.push_back(std::move(refusal));
    break;
  }
}

// Adds one scheduler's tally to `out`.
void AddTally(const SchedulerTally& tally, Cycles* out) {
  for (int v = 0; v < 3; ++v) {
    Run& run = v == 0 ? out->filter : v == 1 ? out->prioritize : out->bind;
    run.micros.insert(run.micros.end(), tally.times[v].begin(),
                      tally.times[v].end());
  }
  out->cycles += tally.cycles;
  out->retries += tally.retries;
  out->unschedulable += tally.unschedulable;
  out->refusals.insert(out->refusals.end(), tally.refusals.begin(),
                       tally.refusals.end());
}

}  // namespace

ProcStatus ReadStatus(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  ProcStatus s;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) s.rss_kib = std::stol(line.substr(6));
    if (line.rfind("VmHWM:", 0) == 0) s.hwm_kib = std::stol(line.substr(6));
  }
  return s;
}

double CpuSeconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  // Fields after the command (which may hold spaces) start past ')'.
  std::istringstream rest(text.substr(text.rfind(')') + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(field);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

std::string ArgsBody(const std::string& pod_text,
                     const std::vector<std::string>& names) {
  std::string body = "{\"NodeNames\":[";
  body.reserve(pod_text.size() + names.size() * 16 + 64);
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) body += ',';
    body += json(names[i]).dump();
  }
  body += "],\"Nodes\":null,\"Pod\":";
  body += pod_text;
  body += '}';
  return body;
}

std::optional<std::vector<std::string>> FilterNodeNames(
    const std::string& body) {
  namespace od = simdjson::ondemand;
  const simdjson::padded_string padded(body);
  od::parser parser;
  od::document doc;
  od::object object;
  if (parser.iterate(padded).get(doc) || doc.get_object().get(object)) {
    return std::nullopt;
  }
  std::optional<std::vector<std::string>> names;
  for (auto field : object) {
    std::string_view key;
    if (field.unescaped_key().get(key)) return std::nullopt;
    if (key != "NodeNames") continue;
    od::array array;
    if (field.value().get_array().get(array)) return std::nullopt;
    names.emplace();
    for (auto item : array) {
      std::string_view name;
      if (item.get_string().get(name)) return std::nullopt;
      names->emplace_back(name);
    }
  }
  return names;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
}

std::unique_ptr<httplib::Client> Connect(int port) {
  auto client = std::make_unique<httplib::Client>("127.0.0.1", port);
  client->set_keep_alive(true);
  client->set_tcp_nodelay(true);  // As Go clients: no Nagle delay.
  client->set_read_timeout(30, 0);
  client->set_default_headers({{"Accept-Encoding", "gzip"}});
  return client;
}

Run Drive(int port, pid_t pid, const std::string& path, const std::string& body,
          int connections, int per_connection) {
  Run run;
  std::mutex mu;
  std::atomic<int> errors{0};
  const double cpu_before = CpuSeconds(pid);
  std::vector<std::thread> threads;
  threads.reserve(connections);
  for (int c = 0; c < connections; ++c) {
    threads.emplace_back([&] {
      auto client = Connect(port);
      std::vector<double> mine;
      for (int i = 0; i < per_connection; ++i) {
        auto t0 = Clock::now();
        auto res = client->Post(path, body, "application/json");
        mine.push_back(
            std::chrono::duration<double, std::micro>(Clock::now() - t0)
                .count());
        if (!res || res->status != 200) ++errors;
      }
      std::lock_guard<std::mutex> lock(mu);
      run.micros.insert(run.micros.end(), mine.begin(), mine.end());
    });
  }
  for (auto& t : threads) t.join();
  run.cpu_per_request_ms =
      (CpuSeconds(pid) - cpu_before) * 1000 / (connections * per_connection);
  run.errors = errors;
  return run;
}

std::vector<double> HandlerCpu(int port,
                               const std::vector<std::string>& verbs) {
  auto client = Connect(port);
  auto res =
      client->Get(std::string(contract::kExtenderPathPrefix) + "/metrics");
  std::vector<double> seconds;
  for (const std::string& verb : verbs) {
    const std::string key =
        "\ngcushare_extender_request_cpu_seconds_total{verb=\"" + verb + "\"} ";
    const size_t at =
        res && res->status == 200 ? res->body.find(key) : std::string::npos;
    seconds.push_back(at == std::string::npos
                          ? 0
                          : std::stod(res->body.substr(at + key.size())));
  }
  return seconds;
}

Cycles DriveCycles(int port, pid_t pid, const std::vector<json>& pods,
                   int nodes, int schedulers) {
  Cycles out;
  std::mutex mu;
  std::atomic<int> next_start{0};
  std::atomic<int> failures{0};
  const double cpu_before = CpuSeconds(pid);
  const std::vector<std::string> verbs = {"filter", "prioritize", "bind"};
  const std::vector<double> handler_before = HandlerCpu(port, verbs);
  std::vector<std::thread> threads;
  threads.reserve(schedulers);
  for (int c = 0; c < schedulers; ++c) {
    threads.emplace_back([&, c] {
      auto client = Connect(port);
      SchedulerTally tally;
      for (size_t i = c; i < pods.size(); i += schedulers) {
        SchedulePod(client.get(), pods[i], nodes, &next_start, &failures,
                    &tally);
      }
      std::lock_guard<std::mutex> lock(mu);
      AddTally(tally, &out);
    });
  }
  for (auto& t : threads) t.join();
  out.process_cpu_per_cycle_ms =
      (CpuSeconds(pid) - cpu_before) * 1000 / std::max(1, out.cycles);
  const std::vector<double> handler_after = HandlerCpu(port, verbs);
  for (int v = 0; v < 3; ++v) {
    Run& run = v == 0 ? out.filter : v == 1 ? out.prioritize : out.bind;
    run.cpu_per_request_ms = (handler_after[v] - handler_before[v]) * 1000 /
                             std::max<size_t>(1, run.micros.size());
  }
  out.bind.errors = failures;
  return out;
}

}  // namespace gcushare::extender
