// NodeResources: the host CPU and memory of the nodes, as the binpack
// policy weighs them (placement::HostFit): each node's allocatable CPU and
// memory (status.allocatable) and the sum of the requests of ALL pods bound
// to it, plain pods included.
//
// Kept tiny (docs/extender.md "What the extender keeps in memory"): a pod costs
// one hash-map entry of its uid (128 bits), node index, CPU millicores and
// memory bytes (about 60 bytes with the map's own overhead); a node its name
// and four numbers. Nodes keep their index once seen, so a pod never holds a
// name.
//
// Bad input (an unreadable quantity) gets InvalidArgument and changes
// nothing. Thread-safe: one mutex guards everything; calls are short.
//
// Fed by NodeFeed and PodFeed (extender/cache_feed.h). The pod informer
// stores only GCU pods, so the other pods are counted from its OnUnkept
// reports and released on OnUnkeptDelete, or by the sweep at the end of a
// relist when they were deleted while it did not watch.
#ifndef GCUSHARE_EXTENDER_NODE_RESOURCES_H_
#define GCUSHARE_EXTENDER_NODE_RESOURCES_H_

#include <array>
#include <cstdint>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "extender/name_index.h"
#include "placement/request_mix.h"
#include "status/status.h"

namespace gcushare::extender {

// A pod's effective CPU (millicores) and memory (bytes) request, computed
// as Kubernetes does for any resource (contract/pod_request.h): per
// container requests, else limits; max(sum of app containers and sidecars,
// the largest init container with the sidecars before it). Each quantity
// is read as kube-scheduler counts it: CPU in millicores rounded up
// (Quantity.MilliValue(): "100u" is 1), memory in bytes rounded up
// (Quantity.Value(): "1500m" is 2). InvalidArgument naming the container
// and quoting the quantity for an unreadable one, or one above 2^50
// millicores or bytes (larger than any node; never wrapped).
StatusOr<placement::HostRequest> PodHostRequest(const nlohmann::json& pod);

// What one of a container's resources.requests or resources.limits says of
// CPU (millicores) and memory (bytes); unset: not named there.
struct HostFigures {
  std::optional<int64_t> cpu_milli;
  std::optional<int64_t> memory;
};

// PodHostRequest()'s arithmetic, fed one container at a time (the init
// containers in their order; apps before or after them): a container asks,
// per resource, its request, else its limit, else 0; the pod asks the
// larger of its app containers plus sidecars and its largest init
// container plus the sidecars before it. Shared with UnkeptPodReader
// (extender/unkept_pod_text.h), so that both count a pod alike.
class PodHostSum {
 public:
  void AddContainer(const HostFigures& requests, const HostFigures& limits,
                    bool init, bool sidecar);
  placement::HostRequest Total() const;

 private:
  placement::HostRequest apps_;
  placement::HostRequest sidecars_;
  placement::HostRequest init_peak_;
};

// One quantity as PodHostRequest() reads it: CPU in millicores rounded up
// ("500m", "2", "1.5", "2k"; "100u", what the API server stores for
// 0.0001, is 1), memory in bytes rounded up ("1Gi", "1.5Gi"; "1500m" is
// 2). InvalidArgument quoting `text` when unreadable or above 2^50.
StatusOr<int64_t> ParseHostCpuMilli(std::string_view text);
StatusOr<int64_t> ParseHostBytes(std::string_view text);

class NodeResources {
 public:
  // From a node object: metadata.name and status.allocatable cpu and
  // memory. InvalidArgument (nothing changes) when one cannot be read.
  Status UpsertNode(const nlohmann::json& node);
  void RemoveNode(std::string_view name);

  // From a pod object: counted on spec.nodeName with PodHostRequest();
  // a pod without a node or finished (Succeeded, Failed) is removed.
  // InvalidArgument (nothing changes) for an unreadable request or uid.
  Status UpsertPod(const nlohmann::json& pod);
  // The same with PodHostRequest(pod) (or its error) already computed, so
  // that a pod event walks its containers once (PodFeed).
  Status UpsertPod(const nlohmann::json& pod,
                   const StatusOr<placement::HostRequest>& request);
  void RemovePod(std::string_view uid);

  // The pods the informer does not store: UpsertUnstoredPod() counts one
  // as UpsertPod() does, and marks it seen in the current sweep. Between
  // BeginSweep() and EndSweep() every such pod still there is upserted
  // again (a relist); EndSweep() removes those that were not. Pods counted
  // by UpsertPod() are never swept (their deletion is reported).
  Status UpsertUnstoredPod(const nlohmann::json& pod);
  Status UpsertUnstoredPod(const nlohmann::json& pod,
                           const StatusOr<placement::HostRequest>& request);
  // The same, from the figures a reader took from the pod's text
  // (extender/unkept_pod_text.h): its uid, node ("" for none), phase and
  // request. InvalidArgument (nothing changes) for an unreadable uid.
  Status UpsertUnstoredPod(std::string_view uid, std::string_view node,
                           std::string_view phase,
                           const placement::HostRequest& request);
  // UpsertPod() from the figures a reader took from the pod's text
  // (extender/pod_text.h), as UpsertUnstoredPod() above.
  Status UpsertPod(std::string_view uid, std::string_view node,
                   std::string_view phase,
                   const placement::HostRequest& request);
  // Room for `pods` pods in all (a list's size), so that a list of them
  // does not grow the table step by step.
  void ReservePods(size_t pods);
  void BeginSweep();
  void EndSweep();

  // Allocatable minus the pods' requests; nullopt when the node's
  // allocatable is unknown.
  std::optional<placement::HostRequest> Free(std::string_view node) const;
  // Free() of each of `nodes`, in order, under one lock.
  std::vector<std::optional<placement::HostRequest>> FreeOf(
      const std::vector<std::string_view>& nodes) const;
  // The same, reading node i at `indices[i]` (IndexOf) without looking its
  // name up, or by name where that is past the nodes known (UINT32_MAX for
  // none). `indices` is as long as `nodes`.
  std::vector<std::optional<placement::HostRequest>> FreeOf(
      const std::vector<std::string_view>& nodes,
      const std::vector<uint32_t>& indices) const;
  // The node's index, the same for the life of this object (a node seen
  // for the first time gets the next one, its figures unknown until
  // UpsertNode()).
  uint32_t IndexOf(std::string_view name);
  size_t pod_count() const;

 private:
  using Uid = std::array<uint64_t, 2>;
  struct UidHash {
    size_t operator()(const Uid& uid) const { return uid[0] ^ (uid[1] * 31); }
  };
  struct Node {
    std::string name;
    uint32_t index = 0;  // In nodes_.
    bool known = false;  // Allocatable read from the node object.
    placement::HostRequest allocatable;
    placement::HostRequest requested;  // Sum over the pods counted here.
  };
  struct Pod {
    uint32_t node = 0;
    uint32_t seen = 0;  // Sweep generation; 0: never swept.
    int64_t cpu_milli = 0;
    int64_t memory = 0;
  };
  static StatusOr<Uid> ParseUid(std::string_view uid);
  uint32_t IndexLocked(std::string_view name) REQUIRES(mu_);
  // Allocatable less requested of `node`; nullopt if null or not known.
  static std::optional<placement::HostRequest> FreeOfNode(const Node* node);
  // Free() of a node by name.
  std::optional<placement::HostRequest> FreeLocked(std::string_view name) const
      REQUIRES(mu_);
  Status Upsert(const nlohmann::json& pod,
                const StatusOr<placement::HostRequest>& request, bool unstored);
  // Upsert() of a pod's figures; `uid` parsed.
  Status UpsertFigures(const Uid& uid, std::string_view node,
                       std::string_view phase,
                       const placement::HostRequest& request, bool unstored);
  void RemoveLocked(const Uid& uid) REQUIRES(mu_);

  mutable base::Mutex mu_;
  // Never erased; a deque, so that index_ may borrow names and entries.
  std::deque<Node> nodes_ GUARDED_BY(mu_);
  // nodes_ by name, flat (FreeOf() looks up a filter's 500 candidates).
  NameIndex<Node> index_ GUARDED_BY(mu_);
  std::unordered_map<Uid, Pod, UidHash> pods_ GUARDED_BY(mu_);
  uint32_t sweep_ GUARDED_BY(mu_) = 1;
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_NODE_RESOURCES_H_
