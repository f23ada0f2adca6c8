// An Extender answered by test code, for unit tests of the scheduling
// cycle. By default it passes every node, scores every node 0 and binds
// successfully; each hook replaces one answer. Calls are recorded.
//
// Thread-safety: calls and the accessors may run on any thread; set the
// hooks before the first call.
#ifndef GCUSHARE_TESTS_PEERS_SCHEDULER_FAKE_EXTENDER_H_
#define GCUSHARE_TESTS_PEERS_SCHEDULER_FAKE_EXTENDER_H_

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/mutex.h"
#include "tests/peers/scheduler/extender.h"

namespace gcushare::scheduler {

class FakeExtender : public Extender {
 public:
  using FilterHook = std::function<StatusOr<ExtenderFilterResult>(
      const nlohmann::json& pod, const std::vector<ObjectPtr>& nodes)>;
  using PrioritizeHook = std::function<StatusOr<std::vector<HostPriority>>(
      const nlohmann::json& pod, const std::vector<ObjectPtr>& nodes)>;
  using BindHook =
      std::function<Status(const nlohmann::json& pod, std::string_view node)>;

  explicit FakeExtender(ExtenderConfig config);

  FilterHook on_filter;
  PrioritizeHook on_prioritize;
  BindHook on_bind;

  const ExtenderConfig& config() const override { return config_; }
  StatusOr<ExtenderFilterResult> Filter(
      const nlohmann::json& pod, const std::vector<ObjectPtr>& nodes) override;
  StatusOr<std::vector<HostPriority>> Prioritize(
      const nlohmann::json& pod, const std::vector<ObjectPtr>& nodes) override;
  Status Bind(const nlohmann::json& pod, std::string_view node) override;

  // The node names each call saw, in call order.
  std::vector<std::vector<std::string>> filter_calls() const;
  std::vector<std::vector<std::string>> prioritize_calls() const;
  // (pod name, node) per Bind call.
  std::vector<std::pair<std::string, std::string>> bind_calls() const;

 private:
  const ExtenderConfig config_;
  mutable base::Mutex mu_;
  std::vector<std::vector<std::string>> filter_calls_ GUARDED_BY(mu_);
  std::vector<std::vector<std::string>> prioritize_calls_ GUARDED_BY(mu_);
  std::vector<std::pair<std::string, std::string>> bind_calls_ GUARDED_BY(mu_);
};

// The node names of `nodes`.
std::vector<std::string> NodeNames(const std::vector<ObjectPtr>& nodes);

}  // namespace gcushare::scheduler

#endif  // GCUSHARE_TESTS_PEERS_SCHEDULER_FAKE_EXTENDER_H_
