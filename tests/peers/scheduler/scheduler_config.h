// The part of a KubeSchedulerConfiguration (apiVersion
// kubescheduler.config.k8s.io/v1) the stand-in kube-scheduler uses: the
// profiles' scheduler names and the `extenders` list (docs/protocols.md 2.4).
//
// Decoding is strict like kube-scheduler's: an unknown key in the document
// or in an extender entry is an error, and the entries are validated the
// way kube-scheduler validates them (positive weight with a prioritizeVerb,
// at most one bindVerb, valid and unique managed resource names). HTTPS
// (enableHTTPS: true, tlsConfig) is refused: the stand-in speaks plain HTTP.
//
// Failure: InvalidArgument naming the source and the field, e.g.
// "/tmp/c.yaml: extenders[0].weight: Invalid value: 0: must have a positive
// weight applied to it". Pure functions; thread-safe.
#ifndef GCUSHARE_TESTS_PEERS_SCHEDULER_SCHEDULER_CONFIG_H_
#define GCUSHARE_TESTS_PEERS_SCHEDULER_SCHEDULER_CONFIG_H_

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "status/status.h"

namespace gcushare::scheduler {

inline constexpr std::string_view kDefaultSchedulerName = "default-scheduler";

// kube-scheduler's DefaultExtenderTimeout, used when httpTimeout is 0.
inline constexpr std::chrono::seconds kDefaultExtenderTimeout{5};

struct ManagedResource {
  std::string name;
  // True: kube-scheduler's own resource fit does not check this resource.
  bool ignored_by_scheduler = false;
};

struct ExtenderConfig {
  std::string url_prefix;
  std::string filter_verb;
  std::string preempt_verb;  // Accepted; the stand-in never preempts.
  std::string prioritize_verb;
  std::string bind_verb;
  int64_t weight = 0;
  bool node_cache_capable = false;
  std::vector<ManagedResource> managed_resources;
  bool ignorable = false;
  // Whole-call limit; 0 in the file means kDefaultExtenderTimeout.
  std::chrono::nanoseconds http_timeout = kDefaultExtenderTimeout;

  // kube-scheduler's IsInterested: true when no resource is managed, or when
  // a container or init container names a managed resource under requests
  // or limits.
  bool IsInterested(const nlohmann::json& pod) const;
  // True when `resource` is managed with ignoredByScheduler: true.
  bool IgnoresInScheduler(std::string_view resource) const;
};

struct SchedulerConfig {
  // profiles[].schedulerName, in file order (may be empty).
  std::vector<std::string> profile_names;
  std::vector<ExtenderConfig> extenders;
};

// Parses the YAML text; `source` names it in errors (a file path).
StatusOr<SchedulerConfig> ParseSchedulerConfig(std::string_view yaml_text,
                                               std::string_view source);

// Reads and parses a file.
StatusOr<SchedulerConfig> LoadSchedulerConfig(const std::string& path);

// A Go time.Duration string: "5s", "1m30s", "250ms", "1.5h", "0".
StatusOr<std::chrono::nanoseconds> ParseGoDuration(std::string_view text);

// An extended resource name: domain-qualified ("example.com/gpu"), not in
// the kubernetes.io namespace, not prefixed "requests.".
bool IsExtendedResourceName(std::string_view name);

}  // namespace gcushare::scheduler

#endif  // GCUSHARE_TESTS_PEERS_SCHEDULER_SCHEDULER_CONFIG_H_
