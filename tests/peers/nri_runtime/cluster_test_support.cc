#include "tests/peers/nri_runtime/cluster_test_support.h"

#include <sys/stat.h>
#include <unistd.h>

#include "contract/annotations.h"
#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare::nri_runtime::testing {
namespace {

std::optional<nlohmann::json> ParseJson(const std::string& line) {
  if (line.empty() || line[0] != '{') return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

}  // namespace

void OutputLines::Add(const std::string& line) {
  base::MutexLock lock(mu_);
  lines_.push_back(line);
  cv_.NotifyAll();
}

bool OutputLines::WaitFor(const std::string& line,
                          std::chrono::milliseconds timeout) {
  base::MutexLock lock(mu_);
  return cv_.WaitFor(lock, timeout, [&]() REQUIRES(mu_) {
    for (const auto& l : lines_) {
      if (l == line) return true;
    }
    return false;
  });
}

std::optional<nlohmann::json> OutputLines::WaitForJson(
    const std::string& pod, const std::string& container,
    std::chrono::milliseconds timeout) {
  std::optional<nlohmann::json> found;
  base::MutexLock lock(mu_);
  cv_.WaitFor(lock, timeout, [&]() REQUIRES(mu_) {
    for (const auto& l : lines_) {
      auto j = ParseJson(l);
      if (j && j->value("pod", "") == pod &&
          j->value("container", "") == container) {
        found = std::move(j);
        return true;
      }
    }
    return false;
  });
  return found;
}

int OutputLines::CountAbout(const std::string& pod) const {
  base::MutexLock lock(mu_);
  int n = 0;
  for (const auto& l : lines_) {
    auto j = ParseJson(l);
    if ((j && j->value("pod", "") == pod) || l == "running " + pod) ++n;
  }
  return n;
}

int OutputLines::Count(const std::string& line) const {
  base::MutexLock lock(mu_);
  int n = 0;
  for (const auto& l : lines_) n += l == line ? 1 : 0;
  return n;
}

std::vector<std::string> OutputLines::All() const {
  base::MutexLock lock(mu_);
  return lines_;
}

std::string OutputLines::Joined() const {
  std::string out;
  for (const auto& l : All()) out += l + "\n";
  return out;
}

std::string DevRoot(int cards) {
  std::string root = gcushare::testing::MakeTempDir();
  ::mkdir((root + "/dev").c_str(), 0755);
  for (int i = 0; i < cards; ++i) AddDevice(root, i);
  return root;
}

void AddDevice(const std::string& root, int index) {
  std::string path = root + "/dev/gcu" + std::to_string(index);
  (void)::symlink("/dev/null", path.c_str());
}

nlohmann::json GcuPod(const std::string& name, const std::string& node,
                      int card, uint64_t units, bool assigned) {
  nlohmann::json container = {
      {"name", "main"},
      {"image", "busybox:1.36"},
      {"command", {"/bin/sh", "-c"}},
      {"args", {"sleep 3600"}},
      {"env",
       {{{"name", "FOO"}, {"value", "bar"}},
        {{"name", "FROM_FIELD"},
         {"valueFrom", {{"fieldRef", {{"fieldPath", "metadata.name"}}}}}}}}};
  nlohmann::json pod = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata",
       {{"name", name}, {"namespace", "default"}, {"labels", {{"app", name}}}}},
      {"spec", {{"nodeName", node}}}};
  if (units > 0) {
    container["resources"]["limits"]["enflame.com/gcu-memory"] =
        std::to_string(units);
    contract::CardAssignment a;
    a.cards = {static_cast<uint32_t>(card)};
    a.card_memory_units = 16;
    a.request_units = units;
    a.assign_time_ns = 1700000000000000000;
    a.assigned = assigned;
    a.container_cards["main"] = {static_cast<uint32_t>(card)};
    for (const auto& [k, v] : contract::EncodeAssignment(a)) {
      pod["metadata"]["annotations"][k] = v;
    }
  }
  pod["spec"]["containers"] = nlohmann::json::array({container});
  return pod;
}

std::vector<std::string> PluginArgv(const std::string& socket,
                                    const std::string& dev_root,
                                    const std::string& log_dir) {
  return {gcushare::testing::RunfilePath("nri-plugin/gcushare-nri-plugin"),
          "--nri-socket=" + socket, "--dev-root=" + dev_root,
          "--log-dir=" + log_dir};
}

}  // namespace gcushare::nri_runtime::testing
