#include "nri-plugin/device_nodes.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cerrno>

namespace gcushare::nri {

HostDeviceNodes::HostDeviceNodes(std::string root) : root_(std::move(root)) {
  while (!root_.empty() && root_.back() == '/') root_.pop_back();
}

StatusOr<DeviceNodeInfo> HostDeviceNodes::Stat(const std::string& path) {
  const std::string host_path = root_ + path;
  struct stat st {};
  if (::stat(host_path.c_str(), &st) != 0) {
    int err = errno;
    if (err == ENOENT || err == ENOTDIR) {
      return NotFoundError("device node " + host_path +
                           " does not exist on this host");
    }
    return ErrnoToStatus(err, "stat " + host_path);
  }
  DeviceNodeInfo info;
  if (S_ISCHR(st.st_mode)) {
    info.type = "c";
  } else if (S_ISBLK(st.st_mode)) {
    info.type = "b";
  } else {
    return FailedPreconditionError(host_path + " is not a device node");
  }
  info.major = major(st.st_rdev);
  info.minor = minor(st.st_rdev);
  info.file_mode = st.st_mode & 07777;
  return info;
}

}  // namespace gcushare::nri
