#include "config-manager/testing/fake_file_system.h"

namespace gcushare::config_manager {

StatusOr<std::string> FakeFileSystem::ReadFile(const std::string& path) {
  auto it = files_.find(path);
  if (it == files_.end()) return NotFoundError("no such file: " + path);
  return it->second.contents;
}

StatusOr<mode_t> FakeFileSystem::FileMode(const std::string& path) {
  auto it = files_.find(path);
  if (it == files_.end()) return NotFoundError("no such file: " + path);
  return it->second.mode;
}

Status FakeFileSystem::WriteFile(const std::string& path,
                                 std::string_view contents, mode_t mode) {
  if (auto it = fail_next_.find(path); it != fail_next_.end()) {
    Status status = it->second;
    fail_next_.erase(it);
    return status;
  }
  files_[path] = File{std::string(contents), mode};
  log_.push_back("write " + path);
  return Status();
}

Status FakeFileSystem::RemoveFile(const std::string& path) {
  if (files_.erase(path) > 0) log_.push_back("remove " + path);
  return Status();
}

void FakeFileSystem::Put(const std::string& path, std::string contents,
                         mode_t mode) {
  files_[path] = File{std::move(contents), mode};
}

void FakeFileSystem::FailNextWrite(const std::string& path, Status status) {
  fail_next_[path] = std::move(status);
}

}  // namespace gcushare::config_manager
