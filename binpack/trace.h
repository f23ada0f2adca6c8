// Trace: the openb cluster and task lists (Alibaba cluster-trace-gpu-v2023,
// /work/shared/data/openb/README.md) read from their CSV files.
//
// Pure functions; thread-compatible. A file that cannot be read, lacks a
// needed column or has a malformed row is an error naming the file and line;
// nothing is returned in part.
#ifndef GCUSHARE_BINPACK_TRACE_H_
#define GCUSHARE_BINPACK_TRACE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "status/status.h"

namespace gcushare::binpack {

struct TraceNode {
  std::string name;
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  uint32_t gpus = 0;
  std::string model;  // Empty when the node has no GPU.
};

struct TraceTask {
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  uint32_t num_gpu = 0;
  uint32_t gpu_milli = 0;  // Per GPU: 1..999 sharing, 1000 whole, 0 none.

  bool Sharing() const { return num_gpu == 1 && gpu_milli < 1000; }
  bool Whole() const { return num_gpu > 0 && gpu_milli >= 1000; }
};

// Parses a node list (columns sn, cpu_milli, memory_mib, gpu, model).
StatusOr<std::vector<TraceNode>> ParseNodeList(std::string_view text,
                                               std::string_view file);
// Parses a pod list (columns cpu_milli, memory_mib, num_gpu, gpu_milli; any
// others are ignored).
StatusOr<std::vector<TraceTask>> ParseTaskList(std::string_view text,
                                               std::string_view file);

StatusOr<std::vector<TraceNode>> ReadNodeList(const std::string& path);
StatusOr<std::vector<TraceTask>> ReadTaskList(const std::string& path);

}  // namespace gcushare::binpack

#endif  // GCUSHARE_BINPACK_TRACE_H_
