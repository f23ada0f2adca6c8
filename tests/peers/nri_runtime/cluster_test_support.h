// Test support for the cluster mode: the real gcushare-nri-plugin binary
// with stand-in device nodes, pods shaped like the scheduler extender and
// device plugin leave them, and a thread-safe collector of output lines.
//
// Not for production code. Thread-safety: OutputLines may be fed from any
// thread; the rest is for one test thread.
#ifndef GCUSHARE_TESTS_PEERS_NRI_RUNTIME_CLUSTER_TEST_SUPPORT_H_
#define GCUSHARE_TESTS_PEERS_NRI_RUNTIME_CLUSTER_TEST_SUPPORT_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/mutex.h"

namespace gcushare::nri_runtime::testing {

// Output lines as they arrive.
class OutputLines {
 public:
  void Add(const std::string& line);
  // Waits until a line equal to `line` arrived; false after `timeout`.
  bool WaitFor(const std::string& line,
               std::chrono::milliseconds timeout = std::chrono::seconds(60));
  // The JSON line for pod `pod` ("ns/name") and `container`, once it came.
  std::optional<nlohmann::json> WaitForJson(
      const std::string& pod, const std::string& container,
      std::chrono::milliseconds timeout = std::chrono::seconds(60));
  // Lines (JSON lines parsed) about `pod`.
  int CountAbout(const std::string& pod) const;
  int Count(const std::string& line) const;
  std::vector<std::string> All() const;
  std::string Joined() const;

 private:
  mutable base::Mutex mu_;
  base::CondVar cv_;
  std::vector<std::string> lines_ GUARDED_BY(mu_);
};

// A directory with dev/gcu0..dev/gcu<n-1> as symlinks to /dev/null.
std::string DevRoot(int cards);
// Adds dev/gcu<index> under `root`.
void AddDevice(const std::string& root, int index);

// A pod bound to `node` with one container "main" asking for `units` of
// enflame.com/gcu-memory on card `card` (assignment annotations of
// contract/annotations.h; gcu-device-assigned = `assigned`). `units` 0:
// a pod asking for nothing and carrying no annotations. The container's env
// has FOO=bar and a valueFrom entry.
nlohmann::json GcuPod(const std::string& name, const std::string& node,
                      int card, uint64_t units, bool assigned);

// argv for the plugin binary against `socket`.
std::vector<std::string> PluginArgv(const std::string& socket,
                                    const std::string& dev_root,
                                    const std::string& log_dir);

}  // namespace gcushare::nri_runtime::testing

#endif  // GCUSHARE_TESTS_PEERS_NRI_RUNTIME_CLUSTER_TEST_SUPPORT_H_
