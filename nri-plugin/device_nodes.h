// Where the plugin learns a card's device node: type, major/minor and mode
// of /dev/gcu<index> on the host, for the adjustment that puts it in a
// container.
//
// HostDeviceNodes stats the real file system (following symlinks, under an
// optional root directory for tests and demos); FakeDeviceNodes
// (fake_device_nodes.h) is a table for unit tests.
//
// Failure: kNotFound naming the path when the node does not exist;
// kFailedPrecondition when it is not a character or block device.
// Thread-safety: implementations are safe for concurrent calls.
#ifndef GCUSHARE_NRI_PLUGIN_DEVICE_NODES_H_
#define GCUSHARE_NRI_PLUGIN_DEVICE_NODES_H_

#include <cstdint>
#include <string>

#include "status/status.h"

namespace gcushare::nri {

struct DeviceNodeInfo {
  std::string type = "c";  // "c" character, "b" block
  int64_t major = 0;
  int64_t minor = 0;
  uint32_t file_mode = 0666;  // Permission bits only.

  friend bool operator==(const DeviceNodeInfo&,
                         const DeviceNodeInfo&) = default;
};

class DeviceNodes {
 public:
  virtual ~DeviceNodes() = default;
  // `path` is the node's path on the host and in the container
  // ("/dev/gcu3").
  virtual StatusOr<DeviceNodeInfo> Stat(const std::string& path) = 0;
};

class HostDeviceNodes : public DeviceNodes {
 public:
  // `root` is prepended to every path ("" or "/" for the real /dev).
  explicit HostDeviceNodes(std::string root = "");
  StatusOr<DeviceNodeInfo> Stat(const std::string& path) override;

 private:
  std::string root_;
};

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_DEVICE_NODES_H_
