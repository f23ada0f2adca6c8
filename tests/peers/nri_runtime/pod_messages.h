// NRI pod and container messages built from a real core/v1 Pod, for the
// stand-in runtime's cluster mode: the shapes of fixtures.h (CRI labels and
// annotations, Linux sandbox, default mounts), carrying the pod's own name,
// namespace, uid, labels and every annotation (so a plugin sees the
// assignment annotations), and per container its name, image, command+args
// and the plain `value` entries of its env (valueFrom entries are skipped:
// nothing here resolves them).
//
// Ids are derived from the pod's uid, so the same pod always gives the same
// sandbox and container ids (across runtime restarts too).
//
// Pure functions; thread-compatible.
#ifndef GCUSHARE_TESTS_PEERS_NRI_RUNTIME_POD_MESSAGES_H_
#define GCUSHARE_TESTS_PEERS_NRI_RUNTIME_POD_MESSAGES_H_

#include <nlohmann/json.hpp>

#include "nri-plugin/api/api.pb.h"

namespace gcushare::nri_runtime {

namespace api = ::nri::pkg::api::v1alpha1;

// The sandbox of `pod` (a core/v1 Pod object).
api::PodSandbox SandboxFromPod(const nlohmann::json& pod);

// The container `container` (an entry of spec.containers) of `sandbox`,
// in state CONTAINER_UNKNOWN (being created).
api::Container ContainerFromPod(const api::PodSandbox& sandbox,
                                const nlohmann::json& container);

}  // namespace gcushare::nri_runtime

#endif  // GCUSHARE_TESTS_PEERS_NRI_RUNTIME_POD_MESSAGES_H_
