// ContainerAdjuster answers NRI's CreateContainer: it finds what the
// container asked for (card_request.h), gathers the facts that live outside
// the message (host device nodes, the node's memory unit and card sizes,
// and the pod object when needed) and builds the adjustment
// (adjustment.h).
//
// Where facts come from, in order:
//   - assignment: the PodSandbox's annotations (containerd passes the pod's
//     annotations); only when the sandbox carries no annotations at all is
//     the pod object used;
//   - the pod object: from the PodCache (a watch of this node's pods) when
//     there is one, never from the API server on this path: containerd
//     creates the container unadjusted when a plugin misses its deadline.
//     With a PodCache, a card goes only to a container whose spec asks for
//     enflame.com/gcu-memory or enflame.com/gcu-count; annotations alone
//     (anyone can set them) get nothing, and a warning says why;
//   - a shared container's own limit: the annotations when it is the pod's
//     only GCU container, else the pod spec;
//   - memory unit: the pod annotation enflame.com/gcu-memory-unit, else the
//     node annotation of the same name, else the --memory-unit flag;
//   - card size: the pod annotation gcu-device-memory, else the node's
//     enflame.com/gcu-devices, else GCUSHARE_MEMORY_TOTAL_MB is left out.
//
// Failure (the runtime then fails this container's creation, and kubelet
// retries): a missing host device node (kNotFound: a container never runs
// without its card), malformed annotations (kInvalidArgument), a pod spec
// needed but not in the PodCache after its bounded wait (kNotFound).
// Containers that asked for nothing get an empty response. After a card is
// handed out, a pod not yet marked gcu-device-assigned=true (whole-card
// pods, node-status mode) is marked so in the background (AssignedMarker),
// or synchronously (best effort) without one.
//
// Ownership: borrows everything. Thread-safety: CreateContainer may run
// concurrently.
#ifndef GCUSHARE_NRI_PLUGIN_CONTAINER_ADJUSTER_H_
#define GCUSHARE_NRI_PLUGIN_CONTAINER_ADJUSTER_H_

#include "assignment/assigned_marker.h"
#include "contract/memory_unit.h"
#include "kube/event_queue.h"
#include "kube/kube_client.h"
#include "nri-plugin/api/api.pb.h"
#include "nri-plugin/device_nodes.h"
#include "nri-plugin/node_info.h"
#include "nri-plugin/pod_cache.h"
#include "status/status.h"

namespace gcushare::nri {

namespace api = ::nri::pkg::api::v1alpha1;

struct AdjusterOptions {
  contract::MemoryUnit default_unit;  // --memory-unit
};

class ContainerAdjuster {
 public:
  // `client` and `node_info` may be null: no API server access. `pods`
  // (may be null: the pod is then read from `client`, and annotations are
  // trusted) and `marker` (may be null) keep the API server off this path.
  ContainerAdjuster(DeviceNodes* nodes, kube::KubeClient* client,
                    NodeInfoCache* node_info, AdjusterOptions options,
                    PodCache* pods = nullptr,
                    assignment::AssignedMarker* marker = nullptr,
                    kube::EventQueue* events = nullptr);

  StatusOr<api::CreateContainerResponse> CreateContainer(
      const api::CreateContainerRequest& request);

 private:
  StatusOr<nlohmann::json> ReadPod(const api::PodSandbox& pod);
  // Best effort: patches gcu-device-assigned=true on the pod when its
  // annotations do not say so yet; a failure is logged, not returned.
  void MarkAssigned(const api::PodSandbox& pod,
                    const nlohmann::json& annotations, const std::string& who);

  DeviceNodes* nodes_;
  kube::KubeClient* client_;
  NodeInfoCache* node_info_;
  AdjusterOptions options_;
  PodCache* pods_;
  assignment::AssignedMarker* marker_;
  kube::EventQueue* events_;  // May be null.
};

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_CONTAINER_ADJUSTER_H_
