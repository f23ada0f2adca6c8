// Allocate matching (docs/architecture.md): kubelet's Allocate names device
// IDs, not a pod, so the plugin guesses which pod it is for.
//
// A pod is a candidate when it is on this node (spec.nodeName), Pending,
// carries the extender's assignment with gcu-device-assigned="false", and has
// a container asking for enflame.com/gcu-memory that the plugin has not
// handed out yet and whose request equals the number of IDs asked for.
// kubelet calls Allocate once per container, init containers first, so the
// container is the first such one in spec order (earlier containers that
// are still waiting are skipped: after a plugin restart the plugin no
// longer knows they were handed out). Among candidates the
// earliest gcu-device-assign-time wins (then namespace/name, for a stable
// order). The guess can be wrong when identical pods start together; the
// NRI plugin corrects the card per container from the pod's annotations.
//
// Pure function over pod JSON; thread-safe.
#ifndef GCUSHARE_DEVICE_PLUGIN_POD_LOCATOR_H_
#define GCUSHARE_DEVICE_PLUGIN_POD_LOCATOR_H_

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "contract/annotations.h"
#include "contract/pod_request.h"
#include "status/status.h"

namespace gcushare::deviceplugin {

using PodPtr = std::shared_ptr<const nlohmann::json>;

// Containers the plugin already handed out, by pod UID.
using HandedOut = std::map<std::string, std::set<std::string>>;

struct LocateQuery {
  std::string node;
  uint64_t units = 0;  // Number of device IDs in the Allocate request.
};

struct PodMatch {
  std::string namespace_name;
  std::string name;
  std::string uid;
  contract::CardAssignment assignment;
  contract::ContainerRequest container;
  std::vector<uint32_t> cards;  // The container's cards.
  // After this container, every container of the pod that asked for
  // gcu-memory has been handed out: time to mark the pod assigned.
  bool last_container = false;

  std::string Key() const { return namespace_name + "/" + name; }
};

// The match, or NotFound whose message says which pods were considered and
// why each was passed over (at most a few are named).
StatusOr<PodMatch> LocatePod(const std::vector<PodPtr>& pods,
                             const LocateQuery& query,
                             const HandedOut& handed_out);

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_POD_LOCATOR_H_
