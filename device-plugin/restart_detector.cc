#include "device-plugin/restart_detector.h"

#include <sys/stat.h>

namespace gcushare::deviceplugin {

FileIdentity StatFileProber::Probe(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return FileIdentity{};
  return FileIdentity{true, static_cast<uint64_t>(st.st_dev),
                      static_cast<uint64_t>(st.st_ino),
                      static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 +
                          st.st_ctim.tv_nsec};
}

RestartDetector::RestartDetector(std::string kubelet_socket,
                                 std::string plugin_socket, FileProber* prober)
    : kubelet_socket_(std::move(kubelet_socket)),
      plugin_socket_(std::move(plugin_socket)),
      prober_(prober) {}

void RestartDetector::Arm() { armed_ = prober_->Probe(kubelet_socket_); }

std::optional<std::string> RestartDetector::Check() {
  if (!prober_->Probe(plugin_socket_).exists) {
    return "our socket " + plugin_socket_ + " was removed";
  }
  FileIdentity now = prober_->Probe(kubelet_socket_);
  if (now.exists && !(now == armed_)) {
    return kubelet_socket_ + " was created anew";
  }
  return std::nullopt;
}

}  // namespace gcushare::deviceplugin
