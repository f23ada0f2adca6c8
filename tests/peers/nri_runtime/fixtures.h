// Realistic NRI pod and container messages, shaped like what containerd
// 1.7 sends (see the CreateContainer request of the conformance capture):
// CRI labels and annotations, a Linux sandbox with cgroup parent and
// namespaces, a container with args, env, the default mounts, namespaces
// and resources. Ids are 64 hex digits and uids UUID-shaped, derived from
// a seed so that runs repeat.
//
// Pure functions; thread-compatible.
#ifndef GCUSHARE_TESTS_PEERS_NRI_RUNTIME_FIXTURES_H_
#define GCUSHARE_TESTS_PEERS_NRI_RUNTIME_FIXTURES_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "nri-plugin/api/api.pb.h"

namespace gcushare::nri_runtime {

namespace api = ::nri::pkg::api::v1alpha1;

// A 64-hex-digit id and a UUID from `seed` and `salt`.
std::string FixtureId(uint64_t seed, std::string_view salt);
std::string FixtureUid(uint64_t seed);

// A pod sandbox; `annotations` are the pod's own (e.g. docs/contracts.md's
// assignment annotations), added beside containerd's CRI ones.
api::PodSandbox MakePodSandbox(
    const std::string& ns, const std::string& name, uint64_t seed,
    const std::map<std::string, std::string>& annotations = {});

// A container of `pod` in state CONTAINER_UNKNOWN (being created), holding
// `devices` in its Linux spec (e.g. a /dev/gcuN injected through CDI).
api::Container MakeContainer(const api::PodSandbox& pod,
                             const std::string& name,
                             const std::vector<api::LinuxDevice>& devices = {});

// A character device entry as CDI would inject it.
api::LinuxDevice CharDevice(const std::string& path, int64_t major,
                            int64_t minor, uint32_t mode = 0666);

}  // namespace gcushare::nri_runtime

#endif  // GCUSHARE_TESTS_PEERS_NRI_RUNTIME_FIXTURES_H_
