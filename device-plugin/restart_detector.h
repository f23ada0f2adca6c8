// Detects a kubelet restart from the device-plugin directory (docs/protocols.md
// 1.4 step 5): on start kubelet deletes every socket in the directory
// (ours included) and creates a fresh kubelet.sock. So either signal means
// "serve again and register again":
//   - kubelet.sock now is a different file (or appeared) than when we
//     registered (device, inode or change time differ: an inode number
//     may be reused at once, so it alone does not tell);
//   - our own socket is gone.
//
// The file system is injected (FileProber) so that the detection is tested
// without a kubelet; StatFileProber is the real one (lstat).
//
// Thread-safety: FileProber implementations are thread-safe; a
// RestartDetector is used by one thread.
#ifndef GCUSHARE_DEVICE_PLUGIN_RESTART_DETECTOR_H_
#define GCUSHARE_DEVICE_PLUGIN_RESTART_DETECTOR_H_

#include <cstdint>
#include <optional>
#include <string>

namespace gcushare::deviceplugin {

struct FileIdentity {
  bool exists = false;
  uint64_t device = 0;
  uint64_t inode = 0;
  int64_t change_time_ns = 0;

  friend bool operator==(const FileIdentity&, const FileIdentity&) = default;
};

class FileProber {
 public:
  virtual ~FileProber() = default;
  virtual FileIdentity Probe(const std::string& path) = 0;
};

class StatFileProber : public FileProber {
 public:
  FileIdentity Probe(const std::string& path) override;
};

class RestartDetector {
 public:
  // Borrows `prober`.
  RestartDetector(std::string kubelet_socket, std::string plugin_socket,
                  FileProber* prober);

  // Remembers kubelet.sock as it is now (call before registering).
  void Arm();

  // Why kubelet looks restarted since Arm(), or nullopt.
  std::optional<std::string> Check();

 private:
  const std::string kubelet_socket_;
  const std::string plugin_socket_;
  FileProber* const prober_;
  FileIdentity armed_;
};

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_RESTART_DETECTOR_H_
