#include "tests/e2e/chaos.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "contract/names.h"
#include "kube/json_fields.h"
#include "kube/resource.h"
#include "testing/files.h"
#include "tests/e2e/bind_journal.h"
#include "tests/e2e/checks.h"
#include "tests/e2e/pods.h"

namespace gcushare::e2e {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPoll = std::chrono::milliseconds(50);
constexpr int kCards = 8;           // configs/fake-cards.yaml.
constexpr int64_t kCardUnits = 16;  // Its 16 GiB at --memory-unit=1.
constexpr int64_t kSizes[] = {1, 2, 3, 4};
constexpr int64_t kMaxSize = 4;
constexpr char kNs[] = "default";

std::string PodName(int i) { return "chaos-" + std::to_string(i); }

// Pods that bind whatever the packing and order: while some card holds at
// most 16 - 4 units any pod fits there, so binding stops only once every
// card holds more than that.
int SurelyBound(int pods) {
  const int64_t units = kCards * (kCardUnits - kMaxSize + 1);
  return std::min<int>(pods,
                       static_cast<int>((units + kMaxSize - 1) / kMaxSize));
}

struct Kill {
  int at = 0;  // When this many pods are bound.
  Piece piece = Piece::kExtender;
};

bool Unschedulable(const nlohmann::json& pod) {
  const nlohmann::json* conditions =
      kube::FindPath(pod, {"status", "conditions"});
  if (conditions == nullptr || !conditions->is_array()) return false;
  for (const nlohmann::json& c : *conditions) {
    if (c.value("type", "") == "PodScheduled" &&
        c.value("status", "") == "False" &&
        c.value("reason", "") == "Unschedulable" &&
        !c.value("message", "").empty()) {
      return true;
    }
  }
  return false;
}

size_t CountOf(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

// One run: the cluster, the RNG's choices, what was seen.
// Ownership: borrows the cluster. Thread-safety: one thread.
class ChaosRun {
 public:
  ChaosRun(const ChaosOptions& options, LocalCluster& cluster,
           ChaosReport& report)
      : options_(options),
        cluster_(cluster),
        report_(report),
        deadline_(Clock::now() + options.timeout) {}

  Status Run(const std::vector<int64_t>& sizes, std::vector<Kill> kills) {
    GCUSHARE_RETURN_IF_ERROR(CreatePods(sizes));
    GCUSHARE_RETURN_IF_ERROR(Disturb(std::move(kills)));
    GCUSHARE_RETURN_IF_ERROR(Settle());
    return Check();
  }

 private:
  // Pods in kNs as the API server has them now.
  StatusOr<std::vector<nlohmann::json>> Pods() {
    GCUSHARE_ASSIGN_OR_RETURN(
        kube::ObjectList list,
        cluster_.client().List(kube::Resource::Pods(), kNs, {}));
    return std::move(list.items);
  }

  Status Expired(const std::string& what) {
    if (Clock::now() < deadline_) return OkStatus();
    return DeadlineExceededError("chaos run stalled " + what);
  }

  // When the API server died of its crash knob: keeps a copy of its journal
  // (the restart compacts it) and starts it again, without the knob.
  Status ReviveApiserver() {
    Component& api = cluster_.component(Piece::kApiserver);
    if (api.Running()) return OkStatus();
    const std::string output = api.Output();
    const size_t at = output.find("crash-on-binding: ");
    if (at == std::string::npos || report_.apiserver_crashes > 0) {
      return InternalError("the API server died unasked:\n" + output);
    }
    report_.crash = output.substr(at, output.find('\n', at) - at);
    ++report_.apiserver_crashes;
    const std::string copy = cluster_.apiserver_state_file() + ".crashed";
    std::filesystem::copy_file(
        cluster_.apiserver_state_file(), copy,
        std::filesystem::copy_options::overwrite_existing);
    journals_.push_back(copy);
    return cluster_.Restart(Piece::kApiserver);
  }

  Status CreatePods(const std::vector<int64_t>& sizes) {
    for (size_t i = 0; i < sizes.size(); ++i) {
      while (true) {
        Status created =
            cluster_.CreatePod(MakeSharedPod(PodName(i), sizes[i]));
        // 409: created before the API server died in the middle of it.
        if (created.ok() || created.http_code() == 409) break;
        if (cluster_.component(Piece::kApiserver).Running() &&
            created.http_code() != 0) {
          return created;
        }
        GCUSHARE_RETURN_IF_ERROR(ReviveApiserver());
        GCUSHARE_RETURN_IF_ERROR(Expired("creating pods"));
        std::this_thread::sleep_for(kPoll);
      }
    }
    return OkStatus();
  }

  // Kills each victim when the number of bound pods reaches its point,
  // and revives the API server when its knob killed it; returns once every
  // kill and the crash happened.
  Status Disturb(std::vector<Kill> kills) {
    size_t next = 0;
    while (next < kills.size() ||
           (options_.crash_apiserver && report_.apiserver_crashes == 0)) {
      GCUSHARE_RETURN_IF_ERROR(ReviveApiserver());
      auto pods = Pods();
      if (pods.ok()) {
        int bound = 0;
        for (const nlohmann::json& pod : *pods) {
          if (!kube::StringAt(pod, {"spec", "nodeName"}).empty()) ++bound;
        }
        while (next < kills.size() && bound >= kills[next].at) {
          GCUSHARE_RETURN_IF_ERROR(cluster_.Relaunch(kills[next].piece));
          ++report_.kills;
          ++next;
        }
      }
      GCUSHARE_RETURN_IF_ERROR(Expired(
          "before kill " + std::to_string(next + 1) + " of " +
          std::to_string(kills.size()) +
          (report_.apiserver_crashes == 0 ? " and the API server's crash"
                                          : "")));
      std::this_thread::sleep_for(kPoll);
    }
    return OkStatus();
  }

  // Waits until the extender is healthy and every pod is Running, refused
  // by the kubelet (bound while the device plugin was down), or
  // Unschedulable with kube-scheduler's message.
  Status Settle() {
    std::string unsettled;
    while (true) {
      GCUSHARE_RETURN_IF_ERROR(ReviveApiserver());
      auto health = cluster_.ExtenderGet("/healthz");
      auto pods = Pods();
      if (health.ok() && health->first == 200 && pods.ok()) {
        const std::string kubelet = testing::ReadFileOrEmpty(
            cluster_.component(Piece::kKubelet).output_path());
        ChaosReport counts;
        unsettled.clear();
        const bool plugin_killed =
            report_.kills > 0 &&
            std::find(options_.victims.begin(), options_.victims.end(),
                      Piece::kDevicePlugin) != options_.victims.end();
        for (const nlohmann::json& pod : *pods) {
          const std::string name = kube::NameOf(pod);
          if (!kube::StringAt(pod, {"spec", "nodeName"}).empty()) {
            ++counts.bound;
            const bool marked =
                kube::StringAt(pod, {"metadata", "annotations",
                                     contract::kPodAssigned}) == "true";
            const std::string key = std::string(kNs) + "/" + name + " ";
            if (kube::StringAt(pod, {"status", "phase"}) == "Running") {
              ++counts.running;
            } else if (marked) {
              unsettled += " " + name + "(marked, not Running yet)";
            } else if (kubelet.find("allocate failed " + key) !=
                       std::string::npos) {
              ++counts.admission_refused;
            } else if (kubelet.find("allocated " + key) != std::string::npos &&
                       plugin_killed) {
              ++counts.marks_lost;
            } else {
              unsettled += " " + name + "(bound, not Running)";
            }
          } else if (Unschedulable(pod)) {
            ++counts.unschedulable;
          } else {
            unsettled += " " + name + "(not scheduled)";
          }
        }
        if (unsettled.empty()) {
          report_.bound = counts.bound;
          report_.running = counts.running;
          report_.admission_refused = counts.admission_refused;
          report_.marks_lost = counts.marks_lost;
          report_.unschedulable = counts.unschedulable;
          return OkStatus();
        }
      } else {
        unsettled = " (extender or API server not answering)";
      }
      GCUSHARE_RETURN_IF_ERROR(Expired("settling:" + unsettled));
      std::this_thread::sleep_for(kPoll);
    }
  }

  // /inspect's per-card usage; waits until it equals `want` (the extender's
  // cache follows the pods through its watch) and reports the difference
  // when it never does.
  Status InspectEquals(const std::map<int, int64_t>& want) {
    std::string last;
    while (true) {
      auto answer =
          cluster_.ExtenderGet("/inspect/" + cluster_.options().node_name);
      if (answer.ok() && answer->first == 200) {
        last = answer->second;
        nlohmann::json view = nlohmann::json::parse(last, nullptr, false);
        std::map<int, int64_t> seen;
        if (!view.is_discarded() && view["nodes"].is_array() &&
            !view["nodes"].empty()) {
          const nlohmann::json& node = view["nodes"][0];
          report_.total_units = node.value("totalGCU", int64_t{0});
          for (const nlohmann::json& card :
               node.value("devices", nlohmann::json::array())) {
            const int64_t used = card.value("usedGCU", int64_t{0});
            if (used != 0) seen[card.value("id", -1)] = used;
          }
        }
        if (seen == want) return OkStatus();
      }
      if (Clock::now() >= deadline_) {
        std::string wanted;
        for (const auto& [card, used] : want) {
          wanted += " card ";
          wanted += std::to_string(card);
          wanted += "=";
          wanted += std::to_string(used);
        }
        std::string message =
            "/inspect never equalled the usage recomputed from the pods:";
        message += wanted;
        message += "; last /inspect: ";
        message += last;
        return InternalError(message);
      }
      std::this_thread::sleep_for(kPoll);
    }
  }

  Status Check() {
    // No card over-committed, every created container got exactly its own
    // pod's card.
    GCUSHARE_ASSIGN_OR_RETURN(Placement placement,
                              CheckPlacement(cluster_, kCardUnits, kNs));
    std::map<int, int64_t> used;
    for (const auto& [card, units] : placement.used_units) {
      if (units > kCardUnits) ++report_.over_commits;
      if (units != 0) used[card] = units;
      report_.used_units += units;
    }
    if (placement.pods != report_.bound) {
      return InternalError(std::to_string(report_.bound - placement.pods) +
                           " bound pod(s) hold no GCU assignment");
    }
    // Each container created once; each Running pod's container created
    // (the runtime prints a container before it marks the pod Running, so
    // the pods are read first).
    GCUSHARE_ASSIGN_OR_RETURN(std::vector<nlohmann::json> pods, Pods());
    std::map<std::string, int> creations;
    for (const CreatedContainer& c : cluster_.CreatedContainers()) {
      if (c.error.empty()) ++creations[c.pod];
    }
    for (const nlohmann::json& pod : pods) {
      const std::string key = std::string(kNs) + "/" + kube::NameOf(pod);
      const bool running =
          kube::StringAt(pod, {"status", "phase"}) == "Running";
      if (creations[key] > 1 || (running && creations[key] != 1)) {
        return InternalError(key + " had its container created " +
                             std::to_string(creations[key]) + " times");
      }
    }
    GCUSHARE_RETURN_IF_ERROR(InspectEquals(used));
    // Every pod's Binding committed at most once, and once more is a 409.
    std::vector<std::string> journals = journals_;
    journals.push_back(cluster_.apiserver_state_file());
    GCUSHARE_ASSIGN_OR_RETURN(auto commits, CountBindCommits(journals));
    for (const nlohmann::json& pod : pods) {
      const std::string key = std::string(kNs) + "/" + kube::NameOf(pod);
      const std::string node = kube::StringAt(pod, {"spec", "nodeName"});
      const int want = node.empty() ? 0 : 1;
      if (commits[key] != want) {
        return InternalError(key + "'s Binding was committed " +
                             std::to_string(commits[key]) + " times");
      }
      if (node.empty()) continue;
      Status again =
          cluster_.client().CreateBinding(kNs, kube::NameOf(pod), "", node, {});
      if (again.http_code() != 409) {
        return InternalError("a second Binding of " + key + " got " +
                             again.ToString() + ", not 409");
      }
      ++report_.second_bindings_refused;
    }
    // Retries: scheduling attempts that failed on a piece being down
    // (kube-scheduler's "Error scheduling pod; retrying") and Bindings that
    // failed at the API server (the extender's warning), all runs.
    report_.retries = static_cast<int>(
        CountOf(testing::ReadFileOrEmpty(
                    cluster_.component(Piece::kScheduler).output_path()),
                "Error scheduling pod; retrying") +
        CountOf(testing::ReadFileOrEmpty(
                    cluster_.component(Piece::kExtender).output_path()),
                "Binding to " + cluster_.options().node_name + " failed"));
    report_.bind_retries_answered = static_cast<int>(
        CountOf(testing::ReadFileOrEmpty(
                    cluster_.component(Piece::kExtender).output_path()),
                "bind retry answered success"));
    return OkStatus();
  }

  const ChaosOptions& options_;
  LocalCluster& cluster_;
  ChaosReport& report_;
  const Clock::time_point deadline_;
  std::vector<std::string> journals_;  // Copies taken before restarts.
};

}  // namespace

std::string ChaosReport::Summary() const {
  std::ostringstream out;
  out << "chaos seed=" << seed << " pods=" << pods << " bound=" << bound
      << " running=" << running << " unschedulable=" << unschedulable
      << " admission-refused=" << admission_refused
      << " marks-lost=" << marks_lost << " kills=" << kills
      << " apiserver-crashes=" << apiserver_crashes << " retries=" << retries
      << " bind-retries-answered=" << bind_retries_answered
      << " second-bindings-refused=" << second_bindings_refused
      << " over-commits=" << over_commits << " used=" << used_units << "/"
      << total_units;
  if (!crash.empty()) out << " (" << crash << ")";
  return out.str();
}

uint64_t ChaosSeedFromEnvironment() {
  if (const char* seed = std::getenv("GCUSHARE_CHAOS_SEED")) {
    return std::strtoull(seed, nullptr, 10);
  }
  return std::random_device{}();
}

StatusOr<ChaosReport> RunChaos(const ChaosOptions& options) {
  if (options.pods < 2 || options.kills_per_piece < 0) {
    return InvalidArgumentError("chaos needs at least 2 pods and >= 0 kills");
  }
  for (Piece piece : options.victims) {
    if (piece == Piece::kApiserver) {
      return InvalidArgumentError(
          "the API server is killed by crash_apiserver, not as a victim");
    }
  }
  ChaosReport report;
  report.seed = options.seed;
  report.pods = options.pods;
  std::mt19937_64 rng(options.seed);
  std::vector<int64_t> sizes;
  sizes.reserve(options.pods);
  std::uniform_int_distribution<size_t> size_index(0, std::size(kSizes) - 1);
  for (int i = 0; i < options.pods; ++i)
    sizes.push_back(kSizes[size_index(rng)]);
  // Kill points: bind counts that are surely reached, so every kill
  // happens while pods are being bound.
  std::vector<Kill> kills;
  std::uniform_int_distribution<int> bound(1, SurelyBound(options.pods));
  for (Piece piece : options.victims) {
    for (int k = 0; k < options.kills_per_piece; ++k) {
      kills.push_back({bound(rng), piece});
    }
  }
  std::stable_sort(kills.begin(), kills.end(),
                   [](const Kill& a, const Kill& b) { return a.at < b.at; });
  ClusterOptions cluster_options;
  cluster_options.runfiles_root = options.runfiles_root;
  if (options.crash_apiserver) {
    // The Nth Binding POST, N among those that surely happen.
    std::uniform_int_distribution<int> nth(1, SurelyBound(options.pods));
    const bool after = std::bernoulli_distribution(0.5)(rng);
    cluster_options.first_start_flags[Piece::kApiserver] = {
        "--crash-on-binding=" + std::to_string(nth(rng)),
        std::string("--crash-phase=") +
            (after ? "after-commit" : "before-commit")};
  }
  auto started = LocalCluster::Start(cluster_options);
  if (!started.ok()) return started.status();
  LocalCluster& cluster = **started;
  ChaosRun run(options, cluster, report);
  Status ran = run.Run(sizes, std::move(kills));
  Status stopped = cluster.Stop();  // Fails on any seccomp denial too.
  if (ran.ok()) ran = stopped;
  if (!ran.ok()) {
    return Status(ran.code(),
                  std::string(ran.message()) + "\n[" + report.Summary() +
                      "; replay with GCUSHARE_CHAOS_SEED=" +
                      std::to_string(options.seed) +
                      ", keep the work directory with GCUSHARE_E2E_KEEP=1: " +
                      cluster.work_dir() + "]");
  }
  return report;
}

}  // namespace gcushare::e2e
