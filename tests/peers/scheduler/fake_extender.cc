#include "tests/peers/scheduler/fake_extender.h"

namespace gcushare::scheduler {

std::vector<std::string> NodeNames(const std::vector<ObjectPtr>& nodes) {
  std::vector<std::string> names;
  names.reserve(nodes.size());
  for (const ObjectPtr& node : nodes) {
    names.push_back(node->value("/metadata/name"_json_pointer, ""));
  }
  return names;
}

FakeExtender::FakeExtender(ExtenderConfig config)
    : config_(std::move(config)) {}

StatusOr<ExtenderFilterResult> FakeExtender::Filter(
    const nlohmann::json& pod, const std::vector<ObjectPtr>& nodes) {
  {
    base::MutexLock lock(mu_);
    filter_calls_.push_back(NodeNames(nodes));
  }
  if (on_filter) return on_filter(pod, nodes);
  ExtenderFilterResult result;
  result.nodes = nodes;
  return result;
}

StatusOr<std::vector<HostPriority>> FakeExtender::Prioritize(
    const nlohmann::json& pod, const std::vector<ObjectPtr>& nodes) {
  {
    base::MutexLock lock(mu_);
    prioritize_calls_.push_back(NodeNames(nodes));
  }
  if (on_prioritize) return on_prioritize(pod, nodes);
  std::vector<HostPriority> zero;
  for (const std::string& name : NodeNames(nodes)) zero.push_back({name, 0});
  return zero;
}

Status FakeExtender::Bind(const nlohmann::json& pod, std::string_view node) {
  {
    base::MutexLock lock(mu_);
    bind_calls_.emplace_back(pod.value("/metadata/name"_json_pointer, ""),
                             std::string(node));
  }
  if (on_bind) return on_bind(pod, node);
  return OkStatus();
}

std::vector<std::vector<std::string>> FakeExtender::filter_calls() const {
  base::MutexLock lock(mu_);
  return filter_calls_;
}

std::vector<std::vector<std::string>> FakeExtender::prioritize_calls() const {
  base::MutexLock lock(mu_);
  return prioritize_calls_;
}

std::vector<std::pair<std::string, std::string>> FakeExtender::bind_calls()
    const {
  base::MutexLock lock(mu_);
  return bind_calls_;
}

}  // namespace gcushare::scheduler
