// The files the config manager reads and writes, behind an interface so
// that its logic is tested on an in-memory fake (testing/fake_file_system.h)
// and runs on the host through RealFileSystem.
//
// Thread-safety: implementations are used from one thread. Failure: Status
// values naming the path; ReadFile of a missing file is kNotFound.
#ifndef GCUSHARE_CONFIG_MANAGER_FILE_SYSTEM_H_
#define GCUSHARE_CONFIG_MANAGER_FILE_SYSTEM_H_

#include <sys/types.h>

#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::config_manager {

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // The whole file; kNotFound when it does not exist.
  virtual StatusOr<std::string> ReadFile(const std::string& path) = 0;
  // Permission bits; kNotFound when it does not exist.
  virtual StatusOr<mode_t> FileMode(const std::string& path) = 0;
  // Replaces the file atomically (readers see the old or the new bytes,
  // never a mix) with `mode`; creates missing parent directories.
  virtual Status WriteFile(const std::string& path, std::string_view contents,
                           mode_t mode) = 0;
  // Removes the file; OK when it does not exist.
  virtual Status RemoveFile(const std::string& path) = 0;
};

// The host's files: fs::WriteFileAtomically (hidden temp file in the same
// directory, so kubelet, which skips hidden files, never reads half a
// manifest) and fs::MakeDirectories.
class RealFileSystem : public FileSystem {
 public:
  StatusOr<std::string> ReadFile(const std::string& path) override;
  StatusOr<mode_t> FileMode(const std::string& path) override;
  Status WriteFile(const std::string& path, std::string_view contents,
                   mode_t mode) override;
  Status RemoveFile(const std::string& path) override;
};

}  // namespace gcushare::config_manager

#endif  // GCUSHARE_CONFIG_MANAGER_FILE_SYSTEM_H_
