// One configured scheduler extender, as kube-scheduler's framework.Extender
// sees it: filter, prioritize and bind calls for a pod.
//
// Implementations: HttpExtender (http_extender.h) speaks the real protocol
// over HTTP; FakeExtender (fake_extender.h) answers from test code.
//
// Failure: a non-OK Status is what kube-scheduler treats as an error from
// the extender; its message is the text kube-scheduler would show, e.g.
// the reply's Error string verbatim, or "failed filter with extender at URL
// http://.../filter, code 500".
// Thread-safety: implementations are safe for concurrent calls.
#ifndef GCUSHARE_TESTS_PEERS_SCHEDULER_EXTENDER_H_
#define GCUSHARE_TESTS_PEERS_SCHEDULER_EXTENDER_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "status/status.h"
#include "tests/peers/scheduler/extender_wire.h"
#include "tests/peers/scheduler/scheduler_config.h"

namespace gcushare::scheduler {

struct ExtenderFilterResult {
  // The nodes that pass: the input objects (cache-capable extenders name
  // them), or the Node objects the extender returned.
  std::vector<ObjectPtr> nodes;
  std::map<std::string, std::string> failed;
  std::map<std::string, std::string> failed_and_unresolvable;
};

class Extender {
 public:
  virtual ~Extender() = default;

  virtual const ExtenderConfig& config() const = 0;

  // Filters `nodes` for `pod`. A reply naming a node that was not in the
  // input is an error (kube-scheduler checks that for cache-capable ones).
  virtual StatusOr<ExtenderFilterResult> Filter(
      const nlohmann::json& pod, const std::vector<ObjectPtr>& nodes) = 0;

  // Scores 0..10 per host.
  virtual StatusOr<std::vector<HostPriority>> Prioritize(
      const nlohmann::json& pod, const std::vector<ObjectPtr>& nodes) = 0;

  // Asks the extender to bind `pod` to `node`.
  virtual Status Bind(const nlohmann::json& pod, std::string_view node) = 0;
};

}  // namespace gcushare::scheduler

#endif  // GCUSHARE_TESTS_PEERS_SCHEDULER_EXTENDER_H_
