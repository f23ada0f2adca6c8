// How containerd applies the CDI devices that the kubelet names in a CRI
// CreateContainer request (CDIDevices) to the container, following
// container-device-interface pkg/cdi (cache.go InjectDevices,
// container-edits.go Apply, container-edits_unix.go fillMissingInfo):
//   - every name must resolve in the registry, else nothing is applied and
//     the error lists the unresolvable names ("unresolvable CDI devices
//     ...");
//   - the edits are collected in request order: the spec-level edits of a
//     spec before the first device taken from it (once per spec), then the
//     device's own edits;
//   - env: "NAME=VALUE" replaces an earlier variable of that NAME in place,
//     or is appended;
//   - device nodes: hostPath defaults to path; a node without type, or
//     without major (unless a fifo), is completed from the host device
//     (lstat through DeviceInfoFn; failure is an error); the container's
//     uid/gid are used when the node sets none; a node replaces any node at
//     the same path (moving to the end); b/c nodes add a cgroup allow rule
//     with their permissions ("rwm" when empty, "" for "none");
//   - mounts: replace any mount at the same containerPath, then are
//     stable-sorted by the number of path components of the destination;
//   - hooks are appended; additional GIDs are added once each, 0 skipped.
//
// Pure functions apart from the injected device lookup and the spec files
// read by ApplyCdiDevices; thread-safe. Never throw.
#ifndef GCUSHARE_TESTS_PEERS_CDI_RUNTIME_INJECT_H_
#define GCUSHARE_TESTS_PEERS_CDI_RUNTIME_INJECT_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cdi/spec.h"
#include "status/status.h"
#include "tests/peers/cdi_runtime/cdi_registry.h"

namespace gcushare::peers::cdi_runtime {

// linux.resources.devices[] entry.
struct DeviceCgroupRule {
  bool allow = true;
  std::string type;  // "b" or "c".
  int64_t major = 0;
  int64_t minor = 0;
  std::string access;  // "rwm", "rw", "".

  friend bool operator==(const DeviceCgroupRule&,
                         const DeviceCgroupRule&) = default;
};

// The parts of a container's OCI spec that CDI edits.
struct ContainerView {
  uint32_t uid = 0;  // process.user
  uint32_t gid = 0;
  std::vector<std::string> env;                // process.env, in order.
  std::vector<cdi::DeviceNode> devices;        // linux.devices
  std::vector<DeviceCgroupRule> device_rules;  // linux.resources.devices
  std::vector<cdi::Mount> mounts;
  std::vector<cdi::Hook> hooks;  // In the order added (hook_name kept).
  std::vector<uint32_t> additional_gids;

  // The value of `name` in env, or nullopt.
  std::optional<std::string> Env(std::string_view name) const;
  // The device node at container path `path`, or null.
  const cdi::DeviceNode* Device(std::string_view path) const;
};

// What lstat says about a host device node.
struct HostDeviceInfo {
  std::string type;  // "b", "c" or "p".
  int64_t major = 0;
  int64_t minor = 0;
};
// Looks up a host path; an error when it is missing or not a device node.
using DeviceInfoFn =
    std::function<StatusOr<HostDeviceInfo>(const std::string& host_path)>;

// lstat(2) of the real filesystem ("not a device node" for other files).
StatusOr<HostDeviceInfo> RealDeviceInfo(const std::string& host_path);

// Applies one set of edits to `view` (container-edits.go Apply).
Status ApplyEdits(const cdi::ContainerEdits& edits,
                  const DeviceInfoFn& device_info, ContainerView& view);

// Resolves `device_ids` in `registry` and applies them to `base`.
// NotFound "unresolvable CDI devices a, b" (with the registry's errors
// appended when there are any) when a name does not resolve; the device
// lookup's error when a node cannot be completed.
StatusOr<ContainerView> InjectDevices(
    const CdiRegistry& registry, const std::vector<std::string>& device_ids,
    const ContainerView& base, const DeviceInfoFn& device_info);

// LoadCdiRegistry(cdi_dirs) then InjectDevices with RealDeviceInfo, as
// containerd does for each container.
StatusOr<ContainerView> ApplyCdiDevices(
    const std::vector<std::string>& cdi_dirs,
    const std::vector<std::string>& device_ids, const ContainerView& base);

}  // namespace gcushare::peers::cdi_runtime

#endif  // GCUSHARE_TESTS_PEERS_CDI_RUNTIME_INJECT_H_
