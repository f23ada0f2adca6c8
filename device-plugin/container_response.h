// The answer to one container's Allocate (docs/architecture.md flow step 6 and
// "Environment"):
//   - cdi_devices: "enflame.com/gcu=<index>" per card;
//   - the same names in the annotation form of docs/protocols.md 5.6,
//     "cdi.k8s.io/enflame.com.gcu_<i>[-<j>...]" -> "enflame.com/gcu=<i>,...",
//     for runtimes that read CDI annotations but not the CRI field;
//   - envs ENFLAME_VISIBLE_DEVICES, GCUSHARE_MEMORY_LIMIT_MB (this
//     container's request in MiB), GCUSHARE_MEMORY_TOTAL_MB (the card's
//     memory in MiB), GCUSHARE_MEMORY_UNIT;
//   - optionally DeviceSpecs for /dev/gcu<index> and the shared control
//     nodes, for runtimes without CDI.
//
// Pure function; thread-safe.
#ifndef GCUSHARE_DEVICE_PLUGIN_CONTAINER_RESPONSE_H_
#define GCUSHARE_DEVICE_PLUGIN_CONTAINER_RESPONSE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "contract/memory_unit.h"
#include "device-plugin/api/api.pb.h"
#include "device-plugin/pod_locator.h"
#include "efml/card.h"
#include "status/status.h"

namespace gcushare::deviceplugin {

struct ResponseOptions {
  bool device_specs = true;  // Add DeviceSpecs (runtimes without CDI).
  // The NRI plugin hands out the card: answer no CDI device (field or
  // annotation) and no DeviceSpec. Allocate may guess the wrong pod among
  // identical ones, and the device-cgroup allow rule a CDI device or
  // DeviceSpec adds for that card stays in the container's spec even after
  // NRI removes the device node (containerd applies no device-cgroup rules
  // from a plugin), so a process with CAP_MKNOD could open another pod's
  // card. The environment is still answered (NRI sets it again).
  bool devices_from_nri = false;
};

// "cdi.k8s.io/enflame.com.gcu_0-1" for cards {0, 1}.
std::string CdiAnnotationKey(const std::vector<uint32_t>& cards);

// FailedPrecondition naming the pod when a card of the match is not in the
// inventory.
StatusOr<v1beta1::ContainerAllocateResponse> BuildContainerResponse(
    const PodMatch& match, const efml::Inventory& inventory,
    contract::MemoryUnit unit, const ResponseOptions& options);

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_CONTAINER_RESPONSE_H_
