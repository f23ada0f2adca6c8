// ContainerAdjuster answers NRI's CreateContainer: it finds what the
// container asked for (card_request.h), gathers the facts that live outside
// the message (host device nodes, the node's memory unit and card sizes,
// and the pod object when needed) and builds the adjustment
// (adjustment.h).
//
// It holds no API client: it sees only caches (the PodCache and the
// NodeInfoCache, both fed by watches) and background queues (the
// AssignedMarker, the EventQueue), so no path of CreateContainer can wait
// on the API server (containerd creates the container UNADJUSTED when a
// plugin misses its deadline).
//
// Where facts come from, in order:
//   - assignment: the PodSandbox's annotations (containerd passes the pod's
//     annotations); only when the sandbox carries no annotations at all is
//     the pod object used;
//   - the pod object: from the PodCache. With a PodCache, a card goes only
//     to a container whose spec asks for enflame.com/gcu-memory or
//     enflame.com/gcu-count; annotations alone (anyone can set them) get
//     nothing, and a warning says why. Without one (no API access), the
//     annotations are trusted and a pod spec that is needed is an error;
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
// needed but not in the PodCache after its bounded wait (kNotFound), or
// needed without a PodCache (kFailedPrecondition). Containers that asked
// for nothing get an empty response. After a card is handed out, a pod not
// yet marked gcu-device-assigned=true (whole-card pods, node-status mode)
// is queued on the AssignedMarker, which marks it in the background.
// Removing a wrong card whose device-cgroup allow rule stays in the
// container's spec (containerd keeps it) logs a warning, once per card.
//
// Ownership: borrows everything. Thread-safety: CreateContainer may run
// concurrently.
#ifndef GCUSHARE_NRI_PLUGIN_CONTAINER_ADJUSTER_H_
#define GCUSHARE_NRI_PLUGIN_CONTAINER_ADJUSTER_H_

#include <atomic>
#include <chrono>
#include <set>

#include "assignment/assigned_marker.h"
#include "base/mutex.h"
#include "contract/memory_unit.h"
#include "kube/event_queue.h"
#include "nri-plugin/adjustment.h"
#include "nri-plugin/api/api.pb.h"
#include "nri-plugin/card_request.h"
#include "nri-plugin/device_nodes.h"
#include "nri-plugin/node_info.h"
#include "nri-plugin/pod_lookup.h"
#include "status/status.h"

namespace gcushare::nri {

namespace api = ::nri::pkg::api::v1alpha1;

// What containerd gives a plugin per request when it does not say.
inline constexpr std::chrono::milliseconds kDefaultRequestTimeout{2000};

struct AdjusterOptions {
  contract::MemoryUnit default_unit;  // --memory-unit
};

class ContainerAdjuster {
 public:
  // Everything but `nodes` may be null (no API server access): then the
  // annotations are trusted and nothing is marked or recorded.
  ContainerAdjuster(DeviceNodes* nodes, NodeInfoCache* node_info,
                    AdjusterOptions options, PodLookup* pods = nullptr,
                    assignment::AssignedMarker* marker = nullptr,
                    kube::EventQueue* events = nullptr);

  StatusOr<api::CreateContainerResponse> CreateContainer(
      const api::CreateContainerRequest& request);

  // The runtime's per-request deadline, from its ConfigureRequest (0: not
  // sent, as containerd 1.7 does: 2 s assumed). A pod not yet cached is
  // waited for at most half of it, leaving the other half for the answer.
  void SetRequestTimeout(std::chrono::milliseconds timeout);
  std::chrono::milliseconds pod_wait_cap() const { return pod_wait_cap_; }

 private:
  StatusOr<nlohmann::json> ReadPod(const api::PodSandbox& pod);
  // Logs, and records as a Warning event, that `container` of `pod` got no
  // card: its annotations name one but its spec asks for none.
  void WarnGcuNotRequested(const api::PodSandbox& pod,
                           const std::string& container,
                           const std::string& who);
  // The facts for BuildAdjustment(): the memory unit, the card size and
  // the host's device nodes of `cards` (an unusable one is an error).
  StatusOr<AdjustmentInput> MakeAdjustmentInput(const ContainerCards& cards,
                                                const std::string& who);
  // Warns, once per card, of a card removed from `container` whose
  // device-cgroup allow rule stays.
  void WarnRemovedStillAllowed(const api::Container& container,
                               const api::ContainerAdjustment& adjust,
                               const std::string& who);
  // Queues the mark gcu-device-assigned=true when the pod's annotations do
  // not say so yet.
  void MarkAssigned(const api::PodSandbox& pod,
                    const nlohmann::json& annotations);

  DeviceNodes* nodes_;
  NodeInfoCache* node_info_;
  AdjusterOptions options_;
  PodLookup* pods_;
  assignment::AssignedMarker* marker_;
  kube::EventQueue* events_;  // May be null.
  base::Mutex warned_mu_;
  // Cards warned about as removed but still allowed.
  std::set<uint32_t> warned_cards_ GUARDED_BY(warned_mu_);
  static constexpr size_t kMaxWarnedCards = 1024;
  std::atomic<std::chrono::milliseconds> pod_wait_cap_{kDefaultRequestTimeout /
                                                       2};
};

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_CONTAINER_ADJUSTER_H_
