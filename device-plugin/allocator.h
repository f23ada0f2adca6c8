// Allocator: answers kubelet's Allocate and GetPreferredAllocation for one
// container at a time (kubelet sends one container request per call).
//
// Allocate: finds the pod (pod_locator.h) among the cached pods of the node,
// then, when none matches, among a fresh list from the API server; builds
// the container's answer (container_response.h); when it was the pod's last
// container asking for gcu-memory, patches the pod annotation
// gcu-device-assigned="true" (merge patch with the uid as precondition).
// kubelet does not retry Allocate, so a failed patch does not fail the
// call: the container is handed out and the mark goes to the
// AssignedMarker, which retries it in the background.
//
// Calls are serialised (one mutex), so identical pods allocated at once are
// handed out one by one and no pod is matched twice: handed-out containers
// are remembered by pod UID, and a pod whose patch succeeded is never a
// candidate again even while the cache still shows "false".
//
// Ownership: borrows the pod source, the client and the inventory function,
// which must outlive it. Thread-safety: thread-safe.
// Failure: NotFound saying which pods were considered and why none matched;
// Unavailable when the API server cannot be reached for the fresh list;
// InvalidArgument for IDs that are not ours.
#ifndef GCUSHARE_DEVICE_PLUGIN_ALLOCATOR_H_
#define GCUSHARE_DEVICE_PLUGIN_ALLOCATOR_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "assignment/assigned_marker.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "contract/memory_unit.h"
#include "device-plugin/api/api.pb.h"
#include "device-plugin/container_response.h"
#include "device-plugin/plugin_metrics.h"
#include "device-plugin/pod_locator.h"
#include "device-plugin/pod_source.h"
#include "efml/card.h"
#include "kube/kube_client.h"
#include "status/status.h"

namespace gcushare::deviceplugin {

struct AllocatorOptions {
  std::string node;
  contract::MemoryUnit unit;
  ResponseOptions response;
  PluginMetrics* metrics = nullptr;  // Borrowed; null: not counted.
};

class Allocator {
 public:
  using InventoryFn = std::function<efml::Inventory()>;

  // `marker` (may be null: a failed mark is then only logged) retries the
  // marks whose first patch failed.
  Allocator(AllocatorOptions options, PodSource* pods, kube::KubeClient* client,
            InventoryFn inventory,
            assignment::AssignedMarker* marker = nullptr);

  StatusOr<v1beta1::ContainerAllocateResponse> AllocateContainer(
      const v1beta1::ContainerAllocateRequest& request);

  // `allocation_size` IDs: the must-include ones, then available IDs of the
  // card assigned to the pod the request is probably for, then any other
  // available ones.
  v1beta1::ContainerPreferredAllocationResponse PreferContainer(
      const v1beta1::ContainerPreferredAllocationRequest& request);

  // Containers handed out so far (for logs and tests).
  uint64_t handed_out() const;

 private:
  StatusOr<PodMatch> Locate(uint64_t units, bool allow_fresh) REQUIRES(mu_);
  // AllocateContainer() before counting its result.
  StatusOr<v1beta1::ContainerAllocateResponse> AllocateOne(
      const v1beta1::ContainerAllocateRequest& request);

  const AllocatorOptions options_;
  PodSource* const pods_;
  kube::KubeClient* const client_;
  const InventoryFn inventory_;
  assignment::AssignedMarker* const marker_;

  mutable base::Mutex mu_;
  HandedOut handed_out_ GUARDED_BY(mu_);
  uint64_t handed_out_count_ GUARDED_BY(mu_) = 0;
};

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_ALLOCATOR_H_
