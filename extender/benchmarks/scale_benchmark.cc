// Extender scale benchmark (issue 17): 5,000 sharing nodes x 8 cards and
// 150,000 pods (50,000 asking for GCU memory) in the stand-in API server
// (in this process: paged lists, resourceVersions, watches), the REAL
// gcushare-scheduler-extender binary as a child process, driven over HTTP
// the way kube-scheduler drives it (keep-alive, Accept-Encoding: gzip,
// nodeCacheCapable: 500 node names per request). Prints one table:
//   - ready: process start to /healthz 200 (both informers synced), and
//     the CPU the extender and the stand-in spent until then, with the
//     stand-in costing lists as kube-apiserver 1.26 does (list_cost.h;
//     --list-cost=free for the old free lists), and the list requests and
//     bytes the start-up cost it, per source (watch cache, etcd);
//   - RSS: VmRSS and VmHWM of the extender after sync and at the end;
//   - filter and prioritize p50/p99 at 1 and 4 connections, and the
//     extender's CPU per request (utime+stime deltas of /proc/<pid>/stat);
//   - bind p50/p99 (filter, then bind), one connection and four at once,
//     and a check that no card holds more than its memory afterwards.
// Figures depend on the machine (and on what else runs on it).
//
//   bazel run -c opt //extender/benchmarks:scale_benchmark [-- --plain-pods=N
//   ...] SCALE_BENCHMARK_WRAPPER="valgrind --tool=callgrind" bazel run ... (to
//   profile the extender; see Wrapper())
#include <httplib.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "contract/names.h"
#include "extender/benchmarks/scheduler_driver.h"
#include "extender/testing/objects.h"
#include "extender/testing/scale_cluster.h"
#include "placement/card_allocator.h"
#include "testing/free_port.h"
#include "testing/scratch_dir.h"
#include "testing/subprocess.h"
#include "tests/extender/harness.h"
#include "tests/peers/apiserver/list_cost.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::extender {

using placement::kInsufficientMemoryReason;

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

// $SCALE_BENCHMARK_WRAPPER (e.g. "valgrind --tool=callgrind"), a command
// the extender runs under for profiling, followed by a space; "" if unset.
// Figures taken through a wrapper measure the wrapper too.
std::string Wrapper() {
  const char* wrapper = std::getenv("SCALE_BENCHMARK_WRAPPER");
  return wrapper == nullptr || *wrapper == '\0' ? ""
                                                : std::string(wrapper) + " ";
}

void PrintRow(const std::string& what, const Run& run) {
  std::printf("| %-42s | %8.3f | %8.3f | %9.3f | %6d |\n", what.c_str(),
              Percentile(run.micros, 0.5) / 1000,
              Percentile(run.micros, 0.99) / 1000, run.cpu_per_request_ms,
              run.errors);
}

// Pending pods for the scheduling cycles, created over HTTP (admission
// applies): shared requests of 1-16 units (the cards hold 16), and one in
// ten asking for whole cards (1, 2 or 4). Fixed seed: the same pods every
// run.
StatusOr<std::vector<json>> CreateCyclePods(apiserver::testing::TestServer& api,
                                            int count) {
  std::mt19937 rng(17);
  std::vector<json> pods;
  pods.reserve(count);
  for (int i = 0; i < count; ++i) {
    testing::ContainerSpec main{"main", 0, 0};
    if (rng() % 10 == 0) {
      main.cards = std::vector<uint64_t>{1, 2, 4}[rng() % 3];
    } else {
      main.memory = 1 + rng() % 16;
    }
    json p = testing::Pod("team-2", "cycle-" + std::to_string(i), "", {main});
    testing::AddRealisticPodFields(p, i);
    p["metadata"].erase("uid");
    auto created = api.Post("/api/v1/namespaces/team-2/pods", p.dump());
    if (created.status != 201) {
      return InternalError("creating a pod: " + std::to_string(created.status) +
                           " " + created.body);
    }
    pods.push_back(json::parse(created.body));
  }
  return pods;
}

// Pending pods for the bind rows, created over HTTP (admission applies):
// 1-4 units each.
StatusOr<std::vector<json>> CreateBindPods(apiserver::testing::TestServer& api,
                                           int count) {
  std::vector<json> pending;
  pending.reserve(count);
  for (int i = 0; i < count; ++i) {
    json p = testing::Pod("team-1", "bind-" + std::to_string(i), "",
                          {{"main", 1 + static_cast<uint64_t>(i % 4), 0}});
    p["metadata"].erase("uid");
    auto created = api.Post("/api/v1/namespaces/team-1/pods", p.dump());
    if (created.status != 201) {
      return InternalError("creating a pod: " + std::to_string(created.status) +
                           " " + created.body);
    }
    pending.push_back(json::parse(created.body));
  }
  return pending;
}

// The benchmark's flags.
struct Options {
  testing::ScaleClusterSpec spec;
  int rounds = 2000;
  int binds = 200;
  int cycles = 1000;  // Pods scheduled by the cycle rows (half at 1, half 4).
  std::string list_cost = "kube-apiserver-1.26";
  std::string list_form = "auto";
  int version_minor = 26;
};

// False (after the usage) on an argument it does not know.
bool ParseOptions(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char* flag) -> int {
      return std::stoi(arg.substr(std::string(flag).size()));
    };
    if (arg.rfind("--nodes=", 0) == 0) {
      o->spec.nodes = value("--nodes=");
    } else if (arg.rfind("--gcu-pods=", 0) == 0) {
      o->spec.gcu_pods = value("--gcu-pods=");
    } else if (arg.rfind("--plain-pods=", 0) == 0) {
      o->spec.plain_pods = value("--plain-pods=");
    } else if (arg.rfind("--rounds=", 0) == 0) {
      o->rounds = value("--rounds=");
    } else if (arg.rfind("--binds=", 0) == 0) {
      o->binds = value("--binds=");
    } else if (arg.rfind("--cycles=", 0) == 0) {
      o->cycles = value("--cycles=");
    } else if (arg == "--list-cost=free" ||
               arg == "--list-cost=kube-apiserver-1.26") {
      o->list_cost = arg.substr(std::string("--list-cost=").size());
    } else if (arg == "--list-form=auto" || arg == "--list-form=watch-cache" ||
               arg == "--list-form=consistent-paged") {
      o->list_form = arg.substr(std::string("--list-form=").size());
    } else if (arg.rfind("--version-minor=", 0) == 0) {
      o->version_minor = value("--version-minor=");
    } else {
      std::fprintf(stderr,
                   "usage: scale_benchmark [--nodes=N] [--gcu-pods=N] "
                   "[--plain-pods=N] [--rounds=N] [--binds=N] "
                   "[--cycles=N] [--list-cost=free|kube-apiserver-1.26] "
                   "[--list-form=auto|watch-cache|consistent-paged] "
                   "[--version-minor=N]\n");
      return false;
    }
  }
  return true;
}

// The stand-in's options for `o`.
apiserver::ServerOptions StandInOptions(const Options& o) {
  apiserver::ServerOptions api_options;
  api_options.threads = 64;
  if (o.list_cost == "kube-apiserver-1.26") {
    api_options.list_cost = apiserver::KubeApiserver126();
  }
  api_options.kube_version = "v1." + std::to_string(o.version_minor) + ".0";
  return api_options;
}

// Fills the stand-in with the cluster of `spec` and says so; false (after
// the error) when it could not.
bool FillStandIn(const testing::ScaleClusterSpec& spec,
                 apiserver::testing::TestServer& api) {
  auto fill_start = Clock::now();
  if (Status s = testing::FillScaleCluster(spec, api.server().store());
      !s.ok()) {
    std::fprintf(stderr, "filling the stand-in: %s\n", s.ToString().c_str());
    return false;
  }
  std::printf(
      "stand-in API server: %d nodes x %d cards, %d pods (%d ask for GCU) "
      "at resourceVersion %lld, filled in %.1f s\n",
      spec.nodes, spec.cards_per_node, spec.gcu_pods + spec.plain_pods,
      spec.gcu_pods, static_cast<long long>(api.server().store().CurrentRv()),
      std::chrono::duration<double>(Clock::now() - fill_start).count());
  return true;
}

// Starts the extender binary (its output into `log`) and waits for its
// /healthz: seconds from start to ready, or -1 (the log's tail printed)
// when it did not start or never became ready within 120 s.
double StartExtender(gcushare::testing::ChildProcess* extender,
                     const std::string& kubeconfig, int port,
                     const std::string& list_form, const std::string& log_dir,
                     const std::string& log) {
  auto start = Clock::now();
  // Through a shell only to send its output to a file (nobody reads a pipe
  // during the run); exec keeps the pid.
  Status started = extender->Start(
      {"/bin/sh", "-c",
       "exec " + Wrapper() +
           gcushare::testing::RunfilePath(
               "extender/gcushare-scheduler-extender") +
           " --kubeconfig=" + kubeconfig + " --address=127.0.0.1 --port=" +
           std::to_string(port) + " --list-form=" + list_form +
           " --log-dir=" + log_dir + " >" + log + " 2>&1"});
  if (!started.ok()) {
    std::fprintf(stderr, "%s\n", started.ToString().c_str());
    return -1;
  }
  const std::string prefix(contract::kExtenderPathPrefix);
  auto probe = Connect(port);
  probe->set_connection_timeout(1, 0);
  while (Clock::now() - start < std::chrono::seconds(120)) {
    auto res = probe->Get(prefix + "/healthz");
    if (res && res->status == 200) {
      return std::chrono::duration<double>(Clock::now() - start).count();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  std::ifstream out(log);
  std::string text((std::istreambuf_iterator<char>(out)), {});
  std::fprintf(
      stderr, "the extender never became ready; it said:\n%s\n",
      text.substr(text.size() > 4000 ? text.size() - 4000 : 0).c_str());
  return -1;
}

// Scheduling cycles (the figures the targets are judged on): different
// pods, each filtered, prioritized and bound before the next; half of
// `pods` with one scheduler, half with four. Prints their rows; adds their
// notes to `notes`; the bind errors.
int CycleRows(int port, pid_t pid, const std::vector<json>& pods, int nodes,
              std::vector<std::string>* notes) {
  int errors = 0;
  const size_t half = pods.size() / 2;
  for (int schedulers : {1, 4}) {
    std::vector<json> share(pods.begin() + (schedulers == 1 ? 0 : half),
                            schedulers == 1 ? pods.begin() + half : pods.end());
    Cycles run = DriveCycles(port, pid, share, nodes, schedulers);
    const std::string who =
        std::to_string(schedulers) + " scheduler" + (schedulers > 1 ? "s" : "");
    PrintRow("cycle: filter, 500 names, " + who, run.filter);
    PrintRow("cycle: prioritize, passed names, " + who, run.prioritize);
    PrintRow("cycle: bind, " + who, run.bind);
    errors += run.bind.errors;
    char note[300];
    std::snprintf(note, sizeof note,
                  "cycles at %s: %zu pods (%d no candidate holds), %d "
                  "cycles (%d after a lost race), extender CPU %.3f ms a "
                  "cycle (whole process)",
                  who.c_str(), share.size(), run.unschedulable, run.cycles,
                  run.retries, run.process_cpu_per_cycle_ms);
    notes->push_back(note);
    for (const std::string& refusal : run.refusals) {
      notes->push_back("cycle refused: " + refusal);
    }
  }
  return errors;
}

// What the bind rows saw besides their latencies.
struct BindNotes {
  // Why binds failed ("<pod> -> <node>: <Error>"), printed after the table.
  std::vector<std::string> refusals;
  int retries = 0;  // Binds refused after losing a race, then retried.
};

// Binds `pending[first, first + count)` over `connections` connections at
// once, each pod filtered (over `names`) then bound to the first node that
// passed.
Run BindSome(int port, pid_t pid, const std::vector<json>& pending,
             const std::vector<std::string>& names, int first, int count,
             int connections, BindNotes* notes) {
  const std::string prefix(contract::kExtenderPathPrefix);
  Run run;
  std::mutex mu;
  std::atomic<int> failures{0};
  const double cpu_before = CpuSeconds(pid);
  std::vector<std::thread> threads;
  threads.reserve(connections);
  for (int c = 0; c < connections; ++c) {
    threads.emplace_back([&, c] {
      auto client = Connect(port);
      std::vector<double> mine;
      for (int i = first + c; i < first + count; i += connections) {
        const json& p = pending[i];
        // As kube-scheduler: a bind refused because a bind racing it took
        // the memory first (binds run concurrently, each after its own
        // filter) sends the pod through filter again; other refusals
        // count as failures.
        for (int attempt = 0;; ++attempt) {
          auto filtered = client->Post(
              prefix + "/filter",
              json{{"Pod", p}, {"Nodes", nullptr}, {"NodeNames", names}}.dump(),
              "application/json");
          json result =
              filtered ? json::parse(filtered->body, nullptr, false) : json();
          if (!result.is_object() || !result["NodeNames"].is_array() ||
              result["NodeNames"].empty()) {
            ++failures;
            break;
          }
          json bind = {{"PodName", p["metadata"]["name"]},
                       {"PodNamespace", p["metadata"]["namespace"]},
                       {"PodUID", p["metadata"]["uid"]},
                       {"Node", result["NodeNames"][0]}};
          auto t0 = Clock::now();
          auto res =
              client->Post(prefix + "/bind", bind.dump(), "application/json");
          mine.push_back(
              std::chrono::duration<double, std::micro>(Clock::now() - t0)
                  .count());
          json answer = res ? json::parse(res->body, nullptr, false) : json();
          const std::string error = answer.is_object()
                                        ? answer.value("Error", "?")
                                        : (res ? res->body : "no answer");
          if (error.empty()) break;
          const bool raced =
              error.find(kInsufficientMemoryReason) != std::string::npos;
          std::lock_guard<std::mutex> lock(mu);
          if (raced && attempt < 3) {
            ++notes->retries;
            continue;
          }
          ++failures;
          std::string refusal = p["metadata"]["name"].get<std::string>();
          refusal += " -> ";
          refusal += result["NodeNames"][0].get<std::string>();
          refusal += ": ";
          refusal += error;
          notes->refusals.push_back(std::move(refusal));
          break;
        }
      }
      std::lock_guard<std::mutex> lock(mu);
      run.micros.insert(run.micros.end(), mine.begin(), mine.end());
    });
  }
  for (auto& t : threads) t.join();
  run.cpu_per_request_ms =
      (CpuSeconds(pid) - cpu_before) * 1000 / std::max(1, count);
  run.errors = failures;
  return run;
}

// The stand-in's bound pods' memory per card, and what its pods weigh.
struct CardCheck {
  int overcommitted = 0;     // Cards holding more than their memory.
  size_t cards_in_use = 0;   // Cards holding any.
  size_t pod_bytes_avg = 0;  // JSON bytes of a pod, on average.
};

// No card may hold more than its memory (`units_per_card`): sums every
// bound pod's memory per card, from the stand-in's objects.
CardCheck CheckCards(apiserver::testing::TestServer& api,
                     uint64_t units_per_card) {
  std::map<std::pair<std::string, std::string>, uint64_t> per_card;
  auto snapshot = api.server().store().List("pods", 0);
  CardCheck check;
  size_t pod_bytes = 0;
  if (snapshot.ok()) {
    for (const auto& [key, stored] : snapshot->items) {
      pod_bytes += stored->json.size();
      const auto& meta = stored->object["metadata"];
      if (!meta.contains("annotations")) continue;
      const auto& a = meta["annotations"];
      auto card = a.find(std::string(contract::kPodDeviceId));
      auto memory = a.find(std::string(contract::kPodMemoryRequest));
      if (card == a.end() || memory == a.end()) continue;
      // A whole-card pod names its cards "0,1" and asks for all their
      // memory: each card holds its share.
      std::vector<std::string> cards;
      std::stringstream list(card->get<std::string>());
      for (std::string one; std::getline(list, one, ',');) cards.push_back(one);
      for (const std::string& one : cards) {
        per_card[{stored->object["spec"].value("nodeName", ""), one}] +=
            std::stoull(memory->get<std::string>()) / cards.size();
      }
    }
    for (const auto& [where, units] : per_card) {
      if (units > units_per_card) ++check.overcommitted;
    }
  }
  check.cards_in_use = per_card.size();
  check.pod_bytes_avg = snapshot.ok() && !snapshot->items.empty()
                            ? pod_bytes / snapshot->items.size()
                            : 0;
  return check;
}

// The table's head.
void PrintHead() {
  std::printf("\n| %-42s | %8s | %8s | %9s | %6s |\n", "request", "p50 ms",
              "p99 ms", "CPU ms/req", "errors");
  std::printf("|%s|%s|%s|%s|%s|\n", std::string(44, '-').c_str(),
              std::string(10, '-').c_str(), std::string(10, '-').c_str(),
              std::string(11, '-').c_str(), std::string(8, '-').c_str());
}

// The same pod again and again, nothing bound in between: after the
// first request every node's verdict is the memo's (VerdictMemo). Prints
// the rows; their errors.
int MemoRows(int port, pid_t pid, const std::string& args, int rounds) {
  const std::string prefix(contract::kExtenderPathPrefix);
  int errors = 0;
  for (const char* verb : {"filter", "prioritize"}) {
    for (int connections : {1, 4}) {
      Run run = Drive(port, pid, prefix + "/" + verb, args, connections,
                      rounds / connections);
      PrintRow("same pod (memo hits): " + std::string(verb) + ", " +
                   std::to_string(connections) + " conn.",
               run);
      errors += run.errors;
    }
  }
  return errors;
}

// The bind rows (after CreateBindPods), then the cycle notes and the bind
// rows' own; their errors.
int BindRows(int port, pid_t pid, const std::vector<json>& pending,
             const std::vector<std::string>& names,
             const std::vector<std::string>& cycle_notes) {
  const int binds = static_cast<int>(pending.size());
  BindNotes notes;
  Run sequential = BindSome(port, pid, pending, names, 0, binds / 2, 1, &notes);
  PrintRow("bind (after filter), 1 connection", sequential);
  Run concurrent = BindSome(port, pid, pending, names, binds / 2,
                            binds - binds / 2, 4, &notes);
  PrintRow("bind (after filter), 4 connections", concurrent);
  for (const std::string& note : cycle_notes) {
    std::printf("%s\n", note.c_str());
  }
  std::printf(
      "binds refused after another bind took the memory first, then "
      "filtered and bound again (as kube-scheduler retries): %d\n",
      notes.retries);
  for (const std::string& refusal : notes.refusals) {
    std::printf("bind refused: %s\n", refusal.c_str());
  }
  return sequential.errors + concurrent.errors;
}

int Main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::warn);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Options o;
  if (!ParseOptions(argc, argv, &o)) return 2;
  const testing::ScaleClusterSpec& spec = o.spec;
  apiserver::testing::TestServer api(StandInOptions(o));
  if (!FillStandIn(spec, api)) return 1;

  gcushare::testing::ScratchDir dir;
  const std::string kubeconfig =
      gcushare::testing::WriteKubeconfig(dir.path(), api.port());
  const int port = gcushare::testing::FreeTcpPort();
  gcushare::testing::ChildProcess extender;
  const double cpu_before_start = CpuSeconds(getpid());
  const double ready_s =
      StartExtender(&extender, kubeconfig, port, o.list_form, dir.path(),
                    dir.path() + "/extender.out");
  if (ready_s < 0) return 1;
  // How long the extender took after the API server's last list answer
  // (its modelled cost over, when the real server starts writing): what
  // the extender itself adds to the server's list time.
  const double after_answer_s =
      std::chrono::duration<double>(Clock::now() -
                                    api.server().list_cost().last_answer())
          .count();
  const pid_t pid = extender.pid();
  const ProcStatus synced = ReadStatus(pid);
  // CPU spent until ready, which the load of a shared machine does not
  // inflate the way it inflates the wall time: the extender's, and this
  // process's (the stand-in serving the lists).
  const double startup_cpu_s = CpuSeconds(pid);
  const double stand_in_cpu_s = CpuSeconds(getpid()) - cpu_before_start;
  // What the start-up's lists cost the stand-in (a relist costs the same).
  const apiserver::ListCost::Counts from_cache =
      api.server().list_cost().counts(apiserver::ListSource::kWatchCache);
  const apiserver::ListCost::Counts from_etcd =
      api.server().list_cost().counts(apiserver::ListSource::kEtcd);

  // A pending pod like kube-scheduler sends it, and 500 candidates.
  json pod =
      testing::Pod("team-0", "candidate", "candidate-uid", {{"main", 4, 0}});
  testing::AddRealisticPodFields(pod, 1);
  std::vector<std::string> names;
  names.reserve(kCandidates);
  for (int i = 0; i < kCandidates; ++i) {
    names.push_back(testing::ScaleNodeName((i * 7919) % spec.nodes));
  }
  const std::string args =
      json{{"Pod", pod}, {"Nodes", nullptr}, {"NodeNames", names}}.dump();
  // Warm up connections and caches.
  (void)Drive(port, pid, std::string(contract::kExtenderPathPrefix) + "/filter",
              args, 1, 50);

  PrintHead();
  std::vector<std::string> cycle_notes;
  auto cycle_pods = CreateCyclePods(api, o.cycles);
  if (!cycle_pods.ok()) {
    std::fprintf(stderr, "%s\n", cycle_pods.status().ToString().c_str());
    return 1;
  }
  int errors = CycleRows(port, pid, *cycle_pods, spec.nodes, &cycle_notes);
  errors += MemoRows(port, pid, args, o.rounds);
  auto pending = CreateBindPods(api, o.binds);
  if (!pending.ok()) {
    std::fprintf(stderr, "%s\n", pending.status().message().c_str());
    return 1;
  }
  errors += BindRows(port, pid, *pending, names, cycle_notes);

  const CardCheck cards = CheckCards(api, spec.units_per_card);
  const ProcStatus end = ReadStatus(pid);
  std::printf(
      "\nready (start to /healthz 200): %.2f s, of which %.2f s after the "
      "API server began writing its last list answer; CPU until then: "
      "extender %.2f s, stand-in %.2f s\n"
      "lists until ready (list cost %s, list form %s, server 1.%d): watch "
      "cache %llu requests %.1f MB, etcd %llu requests %.1f MB\n"
      "extender RSS after sync: VmRSS %ld MiB, VmHWM %ld MiB\n"
      "extender RSS at the end: VmRSS %ld MiB, VmHWM %ld MiB\n"
      "cards over their memory after the binds: %d (of %zu in use)\n"
      "stand-in pods: %zu bytes of JSON each on average\n",
      ready_s, after_answer_s, startup_cpu_s, stand_in_cpu_s,
      o.list_cost.c_str(), o.list_form.c_str(), o.version_minor,
      static_cast<unsigned long long>(from_cache.requests),
      static_cast<double>(from_cache.bytes) / 1e6,
      static_cast<unsigned long long>(from_etcd.requests),
      static_cast<double>(from_etcd.bytes) / 1e6, synced.rss_kib / 1024,
      synced.hwm_kib / 1024, end.rss_kib / 1024, end.hwm_kib / 1024,
      cards.overcommitted, cards.cards_in_use, cards.pod_bytes_avg);
  (void)extender.Signal(SIGTERM);
  (void)extender.Wait(std::chrono::seconds(30));
  return errors == 0 && cards.overcommitted == 0 ? 0 : 1;
}

}  // namespace
}  // namespace gcushare::extender

int main(int argc, char** argv) { return gcushare::extender::Main(argc, argv); }
