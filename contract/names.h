// The names of docs/contracts.md's contracts that users' manifests, runtimes
// and the components themselves depend on. Keep them exactly; change them only
// with the design.
#ifndef GCUSHARE_CONTRACT_NAMES_H_
#define GCUSHARE_CONTRACT_NAMES_H_

#include <array>
#include <string_view>

namespace gcushare::contract {

// Resources.
inline constexpr std::string_view kResourceMemory = "enflame.com/gcu-memory";
inline constexpr std::string_view kResourceCount = "enflame.com/gcu-count";

// Node label that selects sharing nodes.
inline constexpr std::string_view kSharingNodeLabel = "enflame.com/gcushare";
inline constexpr std::string_view kSharingNodeLabelValue = "true";

// Node annotations written by the device plugin.
inline constexpr std::string_view kNodeMemoryUnit =
    "enflame.com/gcu-memory-unit";
inline constexpr std::string_view kNodeDevices = "enflame.com/gcu-devices";

// Pod annotations written by the extender at bind (values are strings).
inline constexpr std::string_view kPodDeviceId = "enflame.com/gcu-device-id";
inline constexpr std::string_view kPodDeviceMemory =
    "enflame.com/gcu-device-memory";
inline constexpr std::string_view kPodMemoryRequest =
    "enflame.com/gcu-device-memory-request";
inline constexpr std::string_view kPodAssignTime =
    "enflame.com/gcu-device-assign-time";
inline constexpr std::string_view kPodAssigned =
    "enflame.com/gcu-device-assigned";
inline constexpr std::string_view kPodContainerDevices =
    "enflame.com/gcu-container-devices";
// All of them, in this order.
inline constexpr std::array<std::string_view, 6> kPodAssignmentKeys = {
    kPodDeviceId,   kPodDeviceMemory, kPodMemoryRequest,
    kPodAssignTime, kPodAssigned,     kPodContainerDevices};

// The domain of every resource, label and annotation above: a pod whose
// text never holds it asks for no GCU resource and carries no assignment.
inline constexpr std::string_view kOurPrefix = "enflame.com/";
static_assert(kResourceMemory.starts_with(kOurPrefix) &&
              kResourceCount.starts_with(kOurPrefix));

// Environment injected into each container that asked for a card.
inline constexpr std::string_view kEnvVisibleDevices =
    "ENFLAME_VISIBLE_DEVICES";
inline constexpr std::string_view kEnvMemoryLimitMb =
    "GCUSHARE_MEMORY_LIMIT_MB";
inline constexpr std::string_view kEnvMemoryTotalMb =
    "GCUSHARE_MEMORY_TOTAL_MB";
inline constexpr std::string_view kEnvMemoryUnit = "GCUSHARE_MEMORY_UNIT";

// CDI: the kind of our devices, and where the spec goes by default.
inline constexpr std::string_view kCdiVendor = "enflame.com";
inline constexpr std::string_view kCdiClass = "gcu";
inline constexpr std::string_view kCdiKind = "enflame.com/gcu";
inline constexpr std::string_view kCdiAllDevice = "all";
inline constexpr std::string_view kCdiSpecBaseName = "enflame.com-gcu";
inline constexpr std::string_view kCdiDynamicDir = "/var/run/cdi";
inline constexpr std::string_view kCdiStaticDir = "/etc/cdi";
// Device-plugin annotation form: "cdi.k8s.io/<plugin>_<device>".
inline constexpr std::string_view kCdiAnnotationPrefix = "cdi.k8s.io/";

// DRA (Kubernetes Dynamic Resource Allocation, resource.k8s.io/v1): the
// driver name (the ResourceSlices' spec.driver, the DeviceClass's selector,
// the plugin's registration name), the CDI kind of the per-claim specs
// (k8s.<driver>/gcu), the node label that puts a node pool on the DRA path,
// and the whole-card DeviceClass mapped to enflame.com/gcu-count (KEP-5004).
inline constexpr std::string_view kDraDriverName = "gcu.enflame.com";
inline constexpr std::string_view kDraCdiKind = "k8s.gcu.enflame.com/gcu";
inline constexpr std::string_view kDraDeviceClass = "gcu.enflame.com";
inline constexpr std::string_view kDraWholeCardDeviceClass =
    "whole-gcu.enflame.com";
inline constexpr std::string_view kModeNodeLabel = "enflame.com/gcushare-mode";
inline constexpr std::string_view kModeNodeLabelDra = "dra";

// Component names (log files, events, --version).
inline constexpr std::string_view kExtenderName = "gcushare-scheduler-extender";
inline constexpr std::string_view kDevicePluginName = "gcushare-device-plugin";
inline constexpr std::string_view kNriPluginName = "gcushare-nri-plugin";
inline constexpr std::string_view kConfigManagerName =
    "gcushare-config-manager";
inline constexpr std::string_view kDraDriverComponentName =
    "gcushare-dra-driver";

// Extender HTTP API.
inline constexpr int kExtenderDefaultPort = 32766;
inline constexpr std::string_view kExtenderPathPrefix = "/gcushare-scheduler";

}  // namespace gcushare::contract

#endif  // GCUSHARE_CONTRACT_NAMES_H_
