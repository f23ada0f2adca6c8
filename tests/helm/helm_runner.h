// Test support: runs the real helm 3.17 binary (installed by
// scripts/tools.sh into tools/helm/bin, a runfile of //tools/helm:helm) on
// the charts in configs/charts, and parses what `helm template` renders.
//
// Bazel tests cannot download: when helm is missing, HelmPath() is empty
// and the tests fail saying to run scripts/setup.sh.
//
// Thread-safety: use from the test's thread. Failure: errors are Status
// values carrying helm's stderr.
#ifndef GCUSHARE_TESTS_HELM_HELM_RUNNER_H_
#define GCUSHARE_TESTS_HELM_HELM_RUNNER_H_

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "status/status.h"
#include "testing/subprocess.h"

namespace gcushare::testing {

// The helm binary among the runfiles, or "" when scripts/tools.sh has not
// installed it.
std::string HelmPath();

// The message for a missing helm.
std::string HelmMissingMessage();

// The runfile directory of a chart in configs/charts
// ("gcushare-device-plugin").
std::string ChartPath(const std::string& chart);

// Runs helm with `args`; helm's cache/config/data homes point into a fresh
// temporary directory, so nothing outside the test is read or written.
StatusOr<ProcessResult> RunHelm(const std::vector<std::string>& args);

// The objects `helm template` renders, in order, without empty documents.
// `args` are extra arguments ("--set", "memoryUnit=0.1", ...). The release
// is named "gcushare" in namespace "gcushare-system".
StatusOr<std::vector<YAML::Node>> RenderChart(
    const std::string& chart, const std::vector<std::string>& args = {});

inline constexpr char kTestNamespace[] = "gcushare-system";

// The first object of `kind` named `name`, or a null node.
YAML::Node FindObject(const std::vector<YAML::Node>& objects,
                      const std::string& kind, const std::string& name);

// Every object of `kind`.
std::vector<YAML::Node> ObjectsOfKind(const std::vector<YAML::Node>& objects,
                                      const std::string& kind);

// The container `name` of a workload's pod template, or a null node.
YAML::Node FindContainer(const YAML::Node& workload, const std::string& name);

// The hostPath of the pod template's volume mounted at `mount_path` in
// `container`, or "" when there is no such mount or it is not a hostPath.
std::string HostPathMountedAt(const YAML::Node& workload,
                              const YAML::Node& container,
                              const std::string& mount_path);

// A sequence of scalars as strings (e.g. args, verbs).
std::vector<std::string> Strings(const YAML::Node& sequence);

}  // namespace gcushare::testing

#endif  // GCUSHARE_TESTS_HELM_HELM_RUNNER_H_
