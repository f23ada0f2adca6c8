#include "fs/make_dirs.h"

#include <sys/stat.h>

#include <cerrno>

namespace gcushare::fs {
namespace {

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

Status MakeDirectories(const std::string& path, mode_t mode) {
  if (path.empty()) return InvalidArgumentError("empty directory path");
  if (IsDirectory(path)) return OkStatus();
  // Create each prefix ending before a '/', then the whole path.
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    const std::string prefix =
        slash == std::string::npos ? path : path.substr(0, slash);
    if (!prefix.empty() && prefix.back() != '/' &&
        ::mkdir(prefix.c_str(), mode) != 0 && errno != EEXIST) {
      return ErrnoToStatus(errno, "cannot create directory " + prefix);
    }
    if (slash == std::string::npos) break;
  }
  if (!IsDirectory(path)) {
    // Something that is not a directory is in the way.
    return ErrnoToStatus(ENOTDIR, "cannot create directory " + path);
  }
  return OkStatus();
}

}  // namespace gcushare::fs
