// What the device plugin publishes on this node (docs/contracts.md node
// annotations): the memory unit (enflame.com/gcu-memory-unit) and each
// card's memory (enflame.com/gcu-devices), kept by a watch of this node
// (kube::Informer with fieldSelector metadata.name=<node>, this cache as its
// handler). It holds no API client: container creation never waits on the
// API server.
//
// Failure: Get() is Unavailable before the watch's first event (the caller
// then falls back to its flags). A node whose annotations do not decode
// keeps the last good value (logged).
// Ownership: owned by main; the informer borrows it. Thread-safety: Get()
// from any thread; the handler methods from the informer's thread.
#ifndef GCUSHARE_NRI_PLUGIN_NODE_INFO_H_
#define GCUSHARE_NRI_PLUGIN_NODE_INFO_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "contract/memory_unit.h"
#include "kube/informer.h"
#include "status/status.h"

namespace gcushare::nri {

struct NodeGcuInfo {
  std::optional<contract::MemoryUnit> unit;
  std::map<uint32_t, uint64_t> card_memory_units;  // index -> units
};

class NodeInfoCache : public kube::InformerHandler {
 public:
  explicit NodeInfoCache(std::string node_name)
      : node_name_(std::move(node_name)) {}

  // What the watch last brought; Unavailable before its first event.
  StatusOr<NodeGcuInfo> Get() const;

  void OnAdd(const nlohmann::json& node) override;
  void OnUpdate(const nlohmann::json& old_node,
                const nlohmann::json& new_node) override;
  void OnDelete(const nlohmann::json& last_state) override;

 private:
  const std::string node_name_;
  mutable base::Mutex mu_;
  std::optional<NodeGcuInfo> cached_ GUARDED_BY(mu_);
};

// The node annotations of a core/v1 Node object, decoded by
// contract::DecodeNodeLayout: empty when nothing is published yet; its
// InvalidArgument when the layout is partial or malformed.
StatusOr<NodeGcuInfo> DecodeNodeGcuInfo(const nlohmann::json& node);

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_NODE_INFO_H_
