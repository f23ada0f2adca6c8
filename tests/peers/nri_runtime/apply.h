// How the runtime applies a plugin's ContainerAdjustment to the container
// being created, as containerd's NRI adaptation does (NRI's
// runtime-tools/generate step, docs/protocols.md 4.4 removal markers):
//   env       KEY=VALUE replaces or appends; "-KEY" removes
//   devices   a path replaces any device at that path and appends a cgroup
//             rule allowing its major:minor with NRI's
//             LinuxDevice.AccessString() ("rw" for a char device, "rwm"
//             for a block device); "-<path>" removes the device from
//             linux.devices ONLY: a cgroup allow rule that CDI or the
//             device plugin's DeviceSpec added for it stays in
//             linux.resources.devices (the runtime-tools generator's
//             RemoveDevice), so the node stays openable through mknod by
//             a process with CAP_MKNOD
//   linux.resources.devices  NOT applied: containerd takes no device-cgroup
//             rules from a plugin
//   mounts    by destination; "-<destination>" removes
//   annotations  "-<key>" removes
//   args      replace the arguments (a leading "" is dropped)
//   CDI_devices  recorded in the container's CDI_devices
// and renders the result as an OCI runtime spec fragment (JSON) that the
// stand-in runtime prints.
//
// Pure functions; thread-compatible.
#ifndef GCUSHARE_TESTS_PEERS_NRI_RUNTIME_APPLY_H_
#define GCUSHARE_TESTS_PEERS_NRI_RUNTIME_APPLY_H_

#include <nlohmann/json.hpp>

#include "nri-plugin/api/api.pb.h"

namespace gcushare::nri_runtime {

namespace api = ::nri::pkg::api::v1alpha1;

api::Container ApplyAdjustment(const api::Container& container,
                               const api::ContainerAdjustment& adjust);

// {"annotations":{...},"process":{"args":[...],"env":[...]},
//  "mounts":[...],"linux":{"devices":[{"path","type","major","minor",
//  "fileMode"}],"resources":{"devices":[{"allow","type","major","minor",
//  "access"}]}}}
nlohmann::ordered_json ContainerSpecJson(const api::Container& container);

}  // namespace gcushare::nri_runtime

#endif  // GCUSHARE_TESTS_PEERS_NRI_RUNTIME_APPLY_H_
