#include "config-manager/file_system.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "fs/atomic_file.h"
#include "fs/make_dirs.h"

namespace gcushare::config_manager {

StatusOr<std::string> RealFileSystem::ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    int err = errno;
    std::string message = "cannot read " + path + ": " + std::strerror(err);
    if (err == ENOENT) return NotFoundError(message);
    return PermissionDeniedError(message);
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) return InternalError("cannot read " + path);
  return contents.str();
}

StatusOr<mode_t> RealFileSystem::FileMode(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    int err = errno;
    std::string message = "cannot stat " + path + ": " + std::strerror(err);
    if (err == ENOENT) return NotFoundError(message);
    return PermissionDeniedError(message);
  }
  return static_cast<mode_t>(st.st_mode & 07777);
}

Status RealFileSystem::WriteFile(const std::string& path,
                                 std::string_view contents, mode_t mode) {
  size_t slash = path.rfind('/');
  if (slash != std::string::npos && slash > 0) {
    GCUSHARE_RETURN_IF_ERROR(fs::MakeDirectories(path.substr(0, slash), 0755));
  }
  fs::WriteOptions options;
  options.mode = mode;
  auto written = fs::WriteFileAtomically(path, contents, options);
  return written.ok() ? Status() : written.status();
}

Status RealFileSystem::RemoveFile(const std::string& path) {
  if (unlink(path.c_str()) != 0 && errno != ENOENT) {
    return PermissionDeniedError("cannot remove " + path + ": " +
                                 std::strerror(errno));
  }
  return Status();
}

}  // namespace gcushare::config_manager
