// A typed model of the CDI spec that GCUShare builds, and its JSON form with
// the real serialized keys (docs/protocols.md 5.2).
//
// The model covers what we emit: env, device nodes, mounts, hooks and
// additional GIDs. Specs written by others (which may use intelRdt or
// netDevices) are handled as JSON trees by the parser and the validator.
//
// Plain values; copy freely; thread-compatible. ToJson never throws and omits
// every empty or absent field, so that an unused feature never raises the
// required cdiVersion.
#ifndef GCUSHARE_CDI_SPEC_H_
#define GCUSHARE_CDI_SPEC_H_

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gcushare::cdi {

// deviceNodes[]: a device node to create in the container.
struct DeviceNode {
  std::string path;       // In the container; required, absolute.
  std::string host_path;  // On the host; empty: same as path.
  std::string type;       // "", "b", "c", "u" or "p".
  std::optional<int64_t> major;
  std::optional<int64_t> minor;
  std::optional<uint32_t> file_mode;
  std::string permissions;  // Letters r, w, m; empty: the runtime's "rwm".
  std::optional<uint32_t> uid;
  std::optional<uint32_t> gid;

  friend bool operator==(const DeviceNode&, const DeviceNode&) = default;
};

// mounts[].
struct Mount {
  std::string host_path;       // Required.
  std::string container_path;  // Required.
  std::string type;            // Needs cdiVersion 0.4.0 when set.
  std::vector<std::string> options;

  friend bool operator==(const Mount&, const Mount&) = default;
};

// hooks[].
struct Hook {
  std::string hook_name;  // prestart, createRuntime, createContainer, ...
  std::string path;       // Absolute.
  std::vector<std::string> args;
  std::vector<std::string> env;  // "NAME=VALUE".
  std::optional<int> timeout;

  friend bool operator==(const Hook&, const Hook&) = default;
};

struct ContainerEdits {
  std::vector<std::string> env;  // "NAME=VALUE".
  std::vector<DeviceNode> device_nodes;
  std::vector<Mount> mounts;
  std::vector<Hook> hooks;
  std::vector<uint32_t> additional_gids;  // Needs cdiVersion 0.7.0 when set.

  bool empty() const {
    return env.empty() && device_nodes.empty() && mounts.empty() &&
           hooks.empty() && additional_gids.empty();
  }

  friend bool operator==(const ContainerEdits&,
                         const ContainerEdits&) = default;
};

struct Device {
  std::string name;                                // "0", "GCU-...", "all".
  std::map<std::string, std::string> annotations;  // Needs 0.6.0 when set.
  ContainerEdits container_edits;                  // Must not be empty.

  friend bool operator==(const Device&, const Device&) = default;
};

struct Spec {
  std::string cdi_version;                         // e.g. "0.5.0".
  std::string kind;                                // "enflame.com/gcu".
  std::map<std::string, std::string> annotations;  // Needs 0.6.0 when set.
  std::vector<Device> devices;
  ContainerEdits container_edits;  // Applied when any device is requested.

  friend bool operator==(const Spec&, const Spec&) = default;
};

// The spec as CDI's JSON: cdiVersion, kind, annotations, devices[].name,
// devices[].annotations, devices[].containerEdits, containerEdits; edits with
// env, deviceNodes{path, hostPath, type, major, minor, fileMode, permissions,
// uid, gid}, mounts{hostPath, containerPath, type, options}, hooks{hookName,
// path, args, env, timeout}, additionalGids. Empty strings, lists, maps and
// absent optionals are omitted. An empty top-level containerEdits is
// omitted; a device's containerEdits is always present.
nlohmann::json ToJson(const Spec& spec);
nlohmann::json ToJson(const ContainerEdits& edits);

}  // namespace gcushare::cdi

#endif  // GCUSHARE_CDI_SPEC_H_
