// What the scale benchmark (scale_benchmark.cc) drives and measures the
// extender with: HTTP clients that call it as kube-scheduler does
// (keep-alive, Accept-Encoding: gzip, nodeCacheCapable bodies), scheduling
// cycles (filter, prioritize, bind, again after a lost race), and the
// figures of the extender's process (/proc/<pid>) and of its handlers
// (/metrics).
//
// Thread-safety: every function may be called from any thread; Drive and
// DriveCycles start threads of their own and join them before returning.
// Failure: a request that fails counts in the Run's errors; nothing throws
// for an extender that does not answer.
#ifndef GCUSHARE_EXTENDER_BENCHMARKS_SCHEDULER_DRIVER_H_
#define GCUSHARE_EXTENDER_BENCHMARKS_SCHEDULER_DRIVER_H_

#include <httplib.h>
#include <unistd.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gcushare::extender {

// Node names per filter request, as kube-scheduler's nodeCacheCapable
// window.
inline constexpr int kCandidates = 500;

// VmRSS and VmHWM of a process in KiB (-1 when unread).
struct ProcStatus {
  long rss_kib = -1;
  long hwm_kib = -1;
};
ProcStatus ReadStatus(pid_t pid);

// utime + stime of `pid`, in seconds.
double CpuSeconds(pid_t pid);

// An ExtenderArgs body with the pod already serialized (`pod_text`) and
// `names`: the bytes nlohmann would write for {"Pod","Nodes":null,
// "NodeNames"}, built without re-serializing the pod for every request
// (the client shares the 2 cores with the extender it measures).
std::string ArgsBody(const std::string& pod_text,
                     const std::vector<std::string>& names);

// The NodeNames of a filter answer, read with simdjson On-Demand without
// building the rest (a binpack answer holds a reason for every outranked
// candidate: 30 KB nlohmann would build into a map every cycle, on the
// cores the extender runs on). nullopt when the answer is not an object
// whose NodeNames is a list of strings.
std::optional<std::vector<std::string>> FilterNodeNames(
    const std::string& body);

// The `p` quantile (0-1) of `v`; 0 for none.
double Percentile(std::vector<double> v, double p);

// A client for the extender on 127.0.0.1:`port`, set up as kube-scheduler's.
std::unique_ptr<httplib::Client> Connect(int port);

// Latencies (as the client sees them), CPU per request and errors of a
// series of requests.
struct Run {
  std::vector<double> micros;
  double cpu_per_request_ms = 0;
  int errors = 0;
};

// `connections` clients each send `per_connection` POSTs of `body` to
// `path`, back to back; latencies as the client sees them, CPU from
// process `pid`'s.
Run Drive(int port, pid_t pid, const std::string& path, const std::string& body,
          int connections, int per_connection);

// The handlers' CPU so far for each of `verbs`, in seconds, from one read
// of the extender's /metrics (gcushare_extender_request_cpu_seconds_total;
// 0 where absent). One read: a scrape costs the extender CPU too.
std::vector<double> HandlerCpu(int port, const std::vector<std::string>& verbs);

// The figures of DriveCycles, per verb and in all.
struct Cycles {
  Run filter, prioritize, bind;
  int cycles = 0;
  int retries = 0;        // Binds refused after losing a race, cycled again.
  int unschedulable = 0;  // Pods filter passed no candidate for.
  double process_cpu_per_cycle_ms = 0;
  std::vector<std::string> refusals;
};

// Scheduling cycles as kube-scheduler runs them, `schedulers` at once
// (each its own connection): for each pod of `pods`, filter with the next
// window of kCandidates node names (kube-scheduler hands the extender the
// feasible nodes it found from a start index that advances by the nodes it
// looked at, so windows rotate through the cluster of `nodes` scale
// nodes), prioritize the nodes filter passed, bind to the best score (the
// first of equal ones), next pod. A bind refused because a racing bind took
// the memory cycles the pod again (at most 3 times), as kube-scheduler
// does. Latencies as the client sees them; CPU per request from the
// extender's handler CPU metric.
Cycles DriveCycles(int port, pid_t pid, const std::vector<nlohmann::json>& pods,
                   int nodes, int schedulers);

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_BENCHMARKS_SCHEDULER_DRIVER_H_
