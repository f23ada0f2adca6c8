// What the device plugin publishes on this node (DESIGN.md node
// annotations): the memory unit (enflame.com/gcu-memory-unit) and each
// card's memory (enflame.com/gcu-devices), read from the API server and
// cached for `ttl` so that container creation does not wait on the API.
//
// Failure: when a refresh fails the last good value is kept and returned;
// with none, the error (the caller then falls back to its flags). A
// malformed annotation is InvalidArgument naming it.
// Ownership: borrows the client and clock. Thread-safety: Get() may be
// called concurrently; one caller refreshes at a time.
#ifndef GCUSHARE_NRI_PLUGIN_NODE_INFO_H_
#define GCUSHARE_NRI_PLUGIN_NODE_INFO_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "contract/memory_unit.h"
#include "kube/clock.h"
#include "kube/informer.h"
#include "kube/kube_client.h"
#include "status/status.h"

namespace gcushare::nri {

struct NodeGcuInfo {
  std::optional<contract::MemoryUnit> unit;
  std::map<uint32_t, uint64_t> card_memory_units;  // index -> units
};

class NodeInfoCache : public kube::InformerHandler {
 public:
  NodeInfoCache(kube::KubeClient* client, std::string node_name,
                kube::Clock* clock,
                std::chrono::seconds ttl = std::chrono::seconds(60));

  StatusOr<NodeGcuInfo> Get();

  // Call before starting an informer on this node with this as its handler:
  // from then on Get() never calls the API server (CreateContainer must not
  // wait on it); it answers what the watch brought, Unavailable before the
  // first event.
  void UseWatch();
  void OnAdd(const nlohmann::json& node) override;
  void OnUpdate(const nlohmann::json& old_node,
                const nlohmann::json& new_node) override;
  void OnDelete(const nlohmann::json& last_state) override;

 private:
  kube::KubeClient* client_;
  std::string node_name_;
  kube::Clock* clock_;
  std::chrono::seconds ttl_;
  std::mutex mu_;
  std::optional<NodeGcuInfo> cached_;
  std::chrono::steady_clock::time_point fetched_at_{};
  bool watched_ = false;  // Guarded by mu_.
};

// The node annotations of a core/v1 Node object, decoded.
StatusOr<NodeGcuInfo> DecodeNodeGcuInfo(const nlohmann::json& node);

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_NODE_INFO_H_
