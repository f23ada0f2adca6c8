// A pod's GCU request, computed the way Kubernetes computes a pod's
// effective request for any resource.
//
// Each container's amount is read from resources.limits (extended resources
// must set limits; requests, if present, equal them), else from
// resources.requests. The pod's effective request per resource is
//   max(sum over app containers + sum over sidecars,
//       max over init containers i of (i's own + sidecars declared before i))
// where a sidecar is an init container with restartPolicy "Always"
// (Kubernetes 1.29+). Without sidecars this is max(sum(app), max(init)).
//
// Pure functions over the pod's JSON (core/v1 Pod); thread-compatible.
#ifndef GCUSHARE_CONTRACT_POD_REQUEST_H_
#define GCUSHARE_CONTRACT_POD_REQUEST_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "json/field_tree.h"
#include "status/status.h"

namespace gcushare::contract {

struct ContainerRequest {
  std::string name;
  bool init = false;          // From spec.initContainers.
  bool sidecar = false;       // Init container with restartPolicy Always.
  uint64_t memory_units = 0;  // enflame.com/gcu-memory
  uint64_t cards = 0;         // enflame.com/gcu-count

  bool Wants() const { return memory_units > 0 || cards > 0; }
};

struct PodRequest {
  // Every container that asked for GCU memory or cards, in spec order (init
  // containers first).
  std::vector<ContainerRequest> containers;
  uint64_t memory_units = 0;  // Effective pod request, in the node's unit.
  uint64_t cards = 0;         // Effective whole-card request.

  bool Wants() const { return memory_units > 0 || cards > 0; }
  // Asks for both shared memory and whole cards: not allowed (the extender
  // rejects it with a clear reason).
  bool Mixed() const { return memory_units > 0 && cards > 0; }
};

// InvalidArgument naming the container and resource when a quantity is not
// a whole non-negative number, naming the resource when the effective
// request passes 2^64-1 (never a wrapped sum), or when the pod JSON is not
// shaped like a Pod.
StatusOr<PodRequest> ComputePodRequest(const nlohmann::json& pod);

// The same from the containers already read (each with its name only when
// it wants GCU, as ComputePodRequest() reads them): the effective request
// above, and the containers that want. For a reader of the pod's text
// (extender/pod_text.h), so that the arithmetic lives once.
StatusOr<PodRequest> PodRequestOf(std::vector<ContainerRequest> init,
                                  std::vector<ContainerRequest> app);

// The fields of a pod ComputePodRequest reads, for a pruned parse
// (json/pruned_parse.h): name, restartPolicy and resources of each container
// and init container. A pod parsed with these (and any others) gives the
// same request, or the same error, as the whole pod.
json::FieldTree PodRequestFields();

}  // namespace gcushare::contract

#endif  // GCUSHARE_CONTRACT_POD_REQUEST_H_
