// replay: replays openb traces through the extender's placement code and
// the reference policies; prints one table (policy x trace, mean and
// standard deviation over the seeds) or, with --json, one JSON object per
// line. See binpack/replay.h and docs/binpacking.md.
//
//   bazel run -c opt //binpack:replay -- --trace=default --seeds=42-51
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "binpack/replay.h"
#include "binpack/trace.h"
#include "daemon/flags.h"

namespace gcushare::binpack {
namespace {

std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// A whole decimal number; throws std::invalid_argument otherwise.
uint64_t ParseWhole(const std::string& text) {
  size_t used = 0;
  uint64_t value = std::stoull(text, &used);
  if (used != text.size() || text[0] == '-' || text[0] == '+') {
    throw std::invalid_argument(text);
  }
  return value;
}

StatusOr<std::vector<uint64_t>> ParseSeeds(const std::string& text) {
  std::vector<uint64_t> seeds;
  for (const std::string& part : Split(text)) {
    size_t dash = part.find('-');
    try {
      if (dash == std::string::npos) {
        seeds.push_back(ParseWhole(part));
      } else {
        uint64_t first = ParseWhole(part.substr(0, dash));
        uint64_t last = ParseWhole(part.substr(dash + 1));
        if (last < first || last - first > 1000) throw std::out_of_range("");
        for (uint64_t s = first; s <= last; ++s) seeds.push_back(s);
      }
    } catch (const std::exception&) {
      return InvalidArgumentError("--seeds: \"" + part +
                                  "\" is not a seed or a range a-b");
    }
  }
  if (seeds.empty()) return InvalidArgumentError("--seeds: no seeds");
  return seeds;
}

struct Cell {
  std::string trace;
  uint32_t g2 = 0;
  ReplayPolicy policy = ReplayPolicy::kDefault;
  std::vector<double> unallocated, dropped;
};

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0 : sum / v.size();
}

double Deviation(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  double mean = Mean(v), sum = 0;
  for (double x : v) sum += (x - mean) * (x - mean);
  return std::sqrt(sum / (v.size() - 1));
}

// The openb task list of a trace ("default": openb_pod_list_default.csv).
std::string TaskListPath(const std::string& data_dir,
                         const std::string& trace) {
  return data_dir + "/openb_pod_list_" + trace + ".csv";
}

// --policies: names as ParseReplayPolicy reads them, comma-separated.
StatusOr<std::vector<ReplayPolicy>> ParsePolicies(const std::string& text) {
  std::vector<ReplayPolicy> policies;
  for (const std::string& name : Split(text)) {
    auto policy = ParseReplayPolicy(name);
    if (!policy.ok()) return policy.status();
    policies.push_back(*policy);
  }
  return policies;
}

// --g2-gib: sizes of 1 to 1024 GiB, comma-separated.
StatusOr<std::vector<uint32_t>> ParseG2Sizes(const std::string& text) {
  std::vector<uint32_t> g2_sizes;
  for (const std::string& size : Split(text)) {
    try {
      uint64_t value = ParseWhole(size);
      if (value == 0 || value > 1024) throw std::out_of_range("");
      g2_sizes.push_back(static_cast<uint32_t>(value));
    } catch (const std::exception&) {
      return InvalidArgumentError("--g2-gib: \"" + size +
                                  "\" is not a size in GiB");
    }
  }
  return g2_sizes;
}

// Replays every cell with every seed on `threads` threads and records each
// run's percentages in its cell; stops at the first failure.
Status RunCells(const std::vector<TraceNode>& nodes,
                std::map<std::string, std::vector<TraceTask>>& task_lists,
                const ReplayConfig& config, const std::vector<uint64_t>& seeds,
                int threads, std::vector<Cell>& cells) {
  struct Job {
    size_t cell;
    uint64_t seed;
  };
  std::vector<Job> jobs;
  for (size_t c = 0; c < cells.size(); ++c) {
    for (uint64_t seed : seeds) jobs.push_back({c, seed});
  }
  base::Mutex mu;
  size_t next = 0;
  Status failure;
  std::vector<std::map<uint64_t, ReplayResult>> results(cells.size());
  auto worker = [&] {
    while (true) {
      Job job;
      {
        base::MutexLock lock(mu);
        if (next >= jobs.size() || !failure.ok()) return;
        job = jobs[next++];
      }
      const Cell& cell = cells[job.cell];
      ReplayConfig run_config = config;
      if (cell.g2 > 0) run_config.g2_gib = cell.g2;
      auto result = Replay(nodes, task_lists[cell.trace], run_config,
                           cell.policy, job.seed);
      base::MutexLock lock(mu);
      if (!result.ok()) {
        failure = result.status().WithContext(cell.trace);
        return;
      }
      results[job.cell][job.seed] = *result;
    }
  };
  std::vector<std::thread> pool;
  for (int i = 0; i < std::max(1, threads); ++i) pool.emplace_back(worker);
  for (std::thread& thread : pool) thread.join();
  if (!failure.ok()) return failure;
  for (size_t c = 0; c < cells.size(); ++c) {
    for (const auto& [seed, result] : results[c]) {
      cells[c].unallocated.push_back(result.unallocated_pct);
      cells[c].dropped.push_back(result.dropped_pct);
    }
  }
  return OkStatus();
}

// One JSON object per cell and line.
void PrintJson(const std::vector<Cell>& cells, const ReplayConfig& config,
               const std::vector<uint64_t>& seeds) {
  for (const Cell& cell : cells) {
    nlohmann::ordered_json line;
    line["trace"] = cell.trace;
    if (config.mode == ReplayConfig::Mode::kMilli) {
      line["g2_gib"] = nullptr;
    } else {
      line["g2_gib"] = cell.g2;
    }
    line["policy"] = std::string(ReplayPolicyName(cell.policy));
    line["seeds"] = seeds;
    line["unallocated_pct"] = Mean(cell.unallocated);
    line["dropped_pct"] = Mean(cell.dropped);
    std::printf("%s\n", line.dump().c_str());
  }
}

// The table: a row per trace and G2 size, a column per policy.
void PrintTable(const std::vector<Cell>& cells,
                const std::vector<ReplayPolicy>& policies,
                const ReplayConfig& config,
                const std::vector<uint64_t>& seeds) {
  std::printf(
      "unallocated card %s %% at 100 %% arrived (mean +- sd over %zu "
      "seeds; dropped demand %% in brackets)\n",
      config.mode == ReplayConfig::Mode::kMilli ? "GPU (milli)" : "memory",
      seeds.size());
  std::printf("%-12s %-4s", "trace", "G2");
  for (ReplayPolicy policy : policies) {
    std::printf(" | %-24s", std::string(ReplayPolicyName(policy)).c_str());
  }
  std::printf("\n");
  for (size_t c = 0; c < cells.size(); c += policies.size()) {
    std::printf("%-12s %-4s", cells[c].trace.c_str(),
                cells[c].g2 > 0 ? std::to_string(cells[c].g2).c_str() : "-");
    for (size_t p = 0; p < policies.size(); ++p) {
      const Cell& cell = cells[c + p];
      std::printf(" | %6.2f +- %4.2f (%5.2f)   ", Mean(cell.unallocated),
                  Deviation(cell.unallocated), Mean(cell.dropped));
    }
    std::printf("\n");
  }
}

int Main(int argc, char** argv) {
  CLI::App app{
      "Replays openb traces through the extender's binpack policy "
      "and the best-fit and FGD references."};
  SetUpApp(app, "gcushare-binpack-replay");
  // `bazel run` sets BUILD_WORKSPACE_DIRECTORY; the data sits in shared/
  // beside the repository.
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  std::string data_dir = std::string(workspace != nullptr ? workspace : ".") +
                         "/../shared/data/openb";
  std::string traces = "default", seeds_text = "42-51", g2_text = "16";
  std::string policies_text = "default,default-gcu-only,bestfit,fgd",
              mode = "memory";
  ReplayConfig config;
  bool json = false;
  int threads = 2;
  app.add_option("--data-dir", data_dir,
                 "Folder with the openb CSV files (default: shared/data/openb "
                 "beside the repository)");
  app.add_option("--trace", traces,
                 "Task lists, comma-separated: default, gpushare40, "
                 "multigpu50, ... (openb_pod_list_<name>.csv)");
  app.add_option("--seeds", seeds_text, "Seeds: 42-51 or 42,43");
  app.add_option("--g2-gib", g2_text, "G2 card sizes in GiB, comma-separated");
  app.add_option("--g3-gib", config.g3_gib, "G3 card size in GiB");
  app.add_option("--mode", mode,
                 "memory (GiB by card model) or milli (the paper's model)");
  app.add_option("--policies", policies_text,
                 "default, default-gcu-only, default-cards, bestfit, fgd, "
                 "fgd-cards, fgd-gcu");
  app.add_option("--threads", threads, "Runs in parallel");
  app.add_flag("--json", json, "One JSON object per line instead of a table");
  if (auto exit_code = ParseFlags(app, argc, argv)) return *exit_code;

  auto fail = [](const Status& status) {
    std::fprintf(stderr, "replay: %s\n", status.message().c_str());
    return 1;
  };
  if (mode == "milli") {
    config.mode = ReplayConfig::Mode::kMilli;
  } else if (mode != "memory") {
    return fail(InvalidArgumentError("--mode: \"" + mode +
                                     "\" is not memory or milli"));
  }
  auto seeds = ParseSeeds(seeds_text);
  if (!seeds.ok()) return fail(seeds.status());
  auto policies = ParsePolicies(policies_text);
  if (!policies.ok()) return fail(policies.status());
  auto g2_sizes = ParseG2Sizes(g2_text);
  if (!g2_sizes.ok()) return fail(g2_sizes.status());
  if (config.mode == ReplayConfig::Mode::kMilli) *g2_sizes = {0};

  auto nodes = ReadNodeList(data_dir + "/openb_node_list_gpu_node.csv");
  if (!nodes.ok()) return fail(nodes.status());
  std::map<std::string, std::vector<TraceTask>> task_lists;
  for (const std::string& trace : Split(traces)) {
    auto tasks = ReadTaskList(TaskListPath(data_dir, trace));
    if (!tasks.ok()) return fail(tasks.status());
    task_lists[trace] = std::move(*tasks);
  }

  std::vector<Cell> cells;
  for (const std::string& trace : Split(traces)) {
    for (uint32_t g2 : *g2_sizes) {
      for (ReplayPolicy policy : *policies) {
        cells.push_back({trace, g2, policy, {}, {}});
      }
    }
  }
  if (Status run = RunCells(*nodes, task_lists, config, *seeds, threads, cells);
      !run.ok()) {
    return fail(run);
  }

  if (json) {
    PrintJson(cells, config, *seeds);
  } else {
    PrintTable(cells, *policies, config, *seeds);
  }
  return 0;
}

}  // namespace
}  // namespace gcushare::binpack

int main(int argc, char** argv) { return gcushare::binpack::Main(argc, argv); }
