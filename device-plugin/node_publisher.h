// What the plugin publishes on its Node object (docs/architecture.md flow step
// 1 and "Node annotations"):
//   status.capacity / status.allocatable enflame.com/gcu-count: the number of
//     cards (allocatable: the healthy ones);
//   in node-status mode also enflame.com/gcu-memory: total units (capacity)
//     and the units of healthy cards (allocatable), since kubelet does not
//     count device IDs then;
//   annotations enflame.com/gcu-memory-unit and enflame.com/gcu-devices: the
//     card layout, encoded by contract/node_layout.h (the extender and the
//     NRI plugin decode it there).
//
// NodePublisher is the interface; KubeNodePublisher patches the node through
// the API (a merge patch of the status subresource, then a merge patch of
// the annotations).
//
// Thread-safety: implementations are thread-safe. Failure: the API's Status,
// with the node named.
#ifndef GCUSHARE_DEVICE_PLUGIN_NODE_PUBLISHER_H_
#define GCUSHARE_DEVICE_PLUGIN_NODE_PUBLISHER_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "contract/memory_unit.h"
#include "contract/node_layout.h"
#include "efml/card.h"
#include "kube/kube_client.h"
#include "status/status.h"

namespace gcushare::deviceplugin {

// Everything the plugin publishes on its Node.
struct NodePublication {
  contract::NodeLayout layout;  // The annotations.
  // status.capacity / status.allocatable.
  uint64_t card_count = 0;
  uint64_t healthy_card_count = 0;
  // Node-status mode only.
  std::optional<uint64_t> memory_capacity;
  std::optional<uint64_t> memory_allocatable;

  friend bool operator==(const NodePublication&,
                         const NodePublication&) = default;
};

NodePublication MakeNodePublication(const efml::Inventory& inventory,
                                    contract::MemoryUnit unit,
                                    bool node_status_mode);

// The two patches, for tests and the publisher.
nlohmann::json NodeStatusPatch(const NodePublication& publication);
nlohmann::json NodeAnnotationsPatch(const NodePublication& publication);

class NodePublisher {
 public:
  virtual ~NodePublisher() = default;
  virtual Status Publish(const NodePublication& publication) = 0;
};

class KubeNodePublisher : public NodePublisher {
 public:
  // Borrows `client`.
  KubeNodePublisher(kube::KubeClient* client, std::string node);
  Status Publish(const NodePublication& publication) override;

 private:
  kube::KubeClient* const client_;
  const std::string node_;
};

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_NODE_PUBLISHER_H_
