// An in-memory FileSystem for the config manager's tests: a map from path
// to bytes and mode, with a log of every write and removal, and error
// injection for the next write of a path.
//
// Thread-safety: none (tests use it from one thread).
#ifndef GCUSHARE_CONFIG_MANAGER_TESTING_FAKE_FILE_SYSTEM_H_
#define GCUSHARE_CONFIG_MANAGER_TESTING_FAKE_FILE_SYSTEM_H_

#include <map>
#include <string>
#include <vector>

#include "config-manager/file_system.h"

namespace gcushare::config_manager {

class FakeFileSystem : public FileSystem {
 public:
  struct File {
    std::string contents;
    mode_t mode = 0644;
  };

  StatusOr<std::string> ReadFile(const std::string& path) override;
  StatusOr<mode_t> FileMode(const std::string& path) override;
  Status WriteFile(const std::string& path, std::string_view contents,
                   mode_t mode) override;
  Status RemoveFile(const std::string& path) override;

  // Test access.
  void Put(const std::string& path, std::string contents, mode_t mode = 0644);
  std::map<std::string, File>& files() { return files_; }
  // "write <path>" / "remove <path>" in call order (removals of missing
  // files are not logged).
  std::vector<std::string>& log() { return log_; }
  // The next WriteFile of `path` fails with `status` and changes nothing.
  void FailNextWrite(const std::string& path, Status status);

 private:
  std::map<std::string, File> files_;
  std::vector<std::string> log_;
  std::map<std::string, Status> fail_next_;
};

}  // namespace gcushare::config_manager

#endif  // GCUSHARE_CONFIG_MANAGER_TESTING_FAKE_FILE_SYSTEM_H_
