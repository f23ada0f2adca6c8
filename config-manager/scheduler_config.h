// kube-scheduler's KubeSchedulerConfiguration, as far as GCUShare touches
// it: our entry in `extenders` (docs/contracts.md, "kube-scheduler
// configuration"; keys in docs/protocols.md 2.4, the same in v1beta1..v1),
// and with rank_plain_pods (the default) a second one that ranks the pods
// without GCU requests.
//
// An entry is ours when its urlPrefix ends in /gcushare-scheduler (any host
// and port). Every other entry is kept as it is.
//
// Pure functions over YAML text; thread-safe. Failure: InvalidArgument
// naming the file and the problem; nothing is half-applied.
#ifndef GCUSHARE_CONFIG_MANAGER_SCHEDULER_CONFIG_H_
#define GCUSHARE_CONFIG_MANAGER_SCHEDULER_CONFIG_H_

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::config_manager {

struct ExtenderEntryOptions {
  // "http://10.96.12.34:32766/gcushare-scheduler"
  std::string url_prefix;
  int weight = 1;
  std::string http_timeout = "30s";
  // Also the plain-pod entry (MakePlainEntry) with this weight; on by
  // default (the binpack policy's shipped default, docs/binpacking.md "The
  // policies replayed").
  bool rank_plain_pods = true;
  int plain_weight = 25;
};

// "http://<host>:<port>/gcushare-scheduler"; IPv6 hosts get brackets.
std::string ExtenderUrl(std::string_view host, int port);

// Our entry: filter/prioritize/bind, nodeCacheCapable, both resources with
// ignoredByScheduler false, not ignorable.
YAML::Node MakeExtenderEntry(const ExtenderEntryOptions& options);

// The plain-pod entry: prioritizeVerb plain/prioritize only, no
// managedResources (kube-scheduler then calls it for every pod; it answers
// 0 everywhere for GCU pods), `plain_weight` (25: one of its score levels,
// 250 points, outweighs the 0..200 of the default profile's
// NodeResourcesFit and BalancedAllocation), nodeCacheCapable, ignorable.
YAML::Node MakePlainEntry(const ExtenderEntryOptions& options);

// Whether `entry` (one element of `extenders`) is GCUShare's.
bool IsOurEntry(const YAML::Node& entry);

// Whether the configuration text holds our entry (false for unparsable
// text).
bool HasOurEntry(std::string_view config_text);
// The same for a configuration already parsed (ParseYamlMap); reads only.
bool HasOurEntry(const YAML::Node& config);

// A whole configuration for a control plane that had none: `api_version`,
// clientConnection.kubeconfig (kube-scheduler ignores --kubeconfig once
// --config is given, so it moves here), leaderElection.leaderElect, and
// our entry.
std::string NewSchedulerConfig(const std::string& api_version,
                               const std::string& kubeconfig, bool leader_elect,
                               const ExtenderEntryOptions& options);

// `original` with our entry added to `extenders` (replacing an older entry
// of ours, keeping all others in order). InvalidArgument when the text is
// not a KubeSchedulerConfiguration, or another extender already binds (at
// most one extender may set bindVerb).
StatusOr<std::string> AddOurExtender(std::string_view original,
                                     std::string_view what,
                                     const ExtenderEntryOptions& options);
// The same for a configuration already parsed (ParseYamlMap), which it
// edits in place (a YAML::Node is a handle: the caller's tree changes,
// also when it fails after the checks).
StatusOr<std::string> AddOurExtender(YAML::Node config, std::string_view what,
                                     const ExtenderEntryOptions& options);

}  // namespace gcushare::config_manager

#endif  // GCUSHARE_CONFIG_MANAGER_SCHEDULER_CONFIG_H_
