#include "fs/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <utility>
#include <vector>

namespace gcushare::fs {
namespace {

// mkstemp replaces exactly these six characters.
constexpr std::string_view kTempSuffixPattern = "XXXXXX";

struct SplitPath {
  std::string dir;   // "." when the path has no '/'.
  std::string name;  // The last component.
};

StatusOr<SplitPath> Split(const std::string& path) {
  SplitPath split;
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) {
    split.dir = ".";
    split.name = path;
  } else {
    split.dir = slash == 0 ? "/" : path.substr(0, slash);
    split.name = path.substr(slash + 1);
  }
  if (split.name.empty() || split.name == "." || split.name == "..") {
    return InvalidArgumentError("cannot write \"" + path +
                                "\": it does not name a file");
  }
  return split;
}

// Closes a file descriptor when it goes out of scope.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) ::close(fd_);
  }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;
  // Closes now and reports close()'s errno (0 on success).
  int Close() {
    int rc = ::close(fd_);
    fd_ = -1;
    return rc == 0 ? 0 : errno;
  }

 private:
  int fd_;
};

struct ExistingFile {
  std::string contents;
  mode_t mode = 0;
};

// The current target, or nullopt when there is none (or its directory does
// not exist, which the temp file creation then reports).
StatusOr<std::optional<ExistingFile>> ReadExisting(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      return std::optional<ExistingFile>();
    }
    return ErrnoToStatus(errno, "cannot read " + path);
  }
  FdCloser closer(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0) return ErrnoToStatus(errno, "cannot stat " + path);
  if (!S_ISREG(st.st_mode)) {
    return FailedPreconditionError("cannot replace " + path +
                                   ": it is not a regular file");
  }
  ExistingFile existing;
  existing.mode = st.st_mode & 07777;
  char buffer[8192];
  while (true) {
    ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoToStatus(errno, "cannot read " + path);
    }
    if (n == 0) break;
    existing.contents.append(buffer, static_cast<size_t>(n));
  }
  return std::optional<ExistingFile>(std::move(existing));
}

// Removes "<dir>/.<name>.tmp-XXXXXX" files left by a killed writer. Best
// effort: a file that cannot be removed is left for the next attempt (and
// creating our own temp file will then fail with the real reason).
Status RemoveLeftoverTempFiles(const SplitPath& split) {
  DIR* dir = ::opendir(split.dir.c_str());
  if (dir == nullptr) {
    return ErrnoToStatus(errno, "cannot open directory " + split.dir +
                                    " to write " + split.name);
  }
  const std::string prefix = "." + split.name + ".tmp-";
  std::vector<std::string> leftovers;
  while (struct dirent* entry = ::readdir(dir)) {
    std::string_view entry_name = entry->d_name;
    if (entry_name.size() == prefix.size() + kTempSuffixPattern.size() &&
        entry_name.substr(0, prefix.size()) == prefix) {
      leftovers.emplace_back(entry_name);
    }
  }
  int dir_fd = ::dirfd(dir);
  for (const std::string& leftover : leftovers) {
    ::unlinkat(dir_fd, leftover.c_str(), 0);
  }
  ::closedir(dir);
  return OkStatus();
}

Status WriteAll(int fd, std::string_view contents, const std::string& what) {
  while (!contents.empty()) {
    ssize_t n = ::write(fd, contents.data(), contents.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoToStatus(errno, "cannot write " + what);
    }
    contents.remove_prefix(static_cast<size_t>(n));
  }
  return OkStatus();
}

Status SyncDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoToStatus(errno, "cannot open directory " + dir);
  FdCloser closer(fd);
  // Some file systems cannot sync a directory; they say EINVAL.
  if (::fsync(fd) != 0 && errno != EINVAL) {
    return ErrnoToStatus(errno, "cannot sync directory " + dir);
  }
  return OkStatus();
}

// Writes the temp file completely and durably, then renames it over `path`.
// On error the temp file is gone and `path` is untouched.
Status WriteThroughTempFile(const std::string& path, const SplitPath& split,
                            std::string_view contents,
                            const WriteOptions& options) {
  std::string temp_path =
      TempFilePrefix(path) + std::string(kTempSuffixPattern);
  int fd = ::mkstemp(temp_path.data());
  if (fd < 0) {
    return ErrnoToStatus(errno, "cannot create temp file in " + split.dir);
  }
  FdCloser closer(fd);
  auto fail = [&temp_path](Status status) {
    ::unlink(temp_path.c_str());
    return status;
  };
  const std::string what = path + " (temp file " + temp_path + ")";
  if (::fchmod(fd, options.mode) != 0) {
    return fail(ErrnoToStatus(errno, "cannot set the mode of " + what));
  }
  if (Status status = WriteAll(fd, contents, what); !status.ok()) {
    return fail(status);
  }
  if (::fsync(fd) != 0) {
    return fail(ErrnoToStatus(errno, "cannot sync " + what));
  }
  if (int err = closer.Close(); err != 0) {
    return fail(ErrnoToStatus(err, "cannot write " + what));
  }
  if (options.before_rename) options.before_rename();
  if (::rename(temp_path.c_str(), path.c_str()) != 0) {
    return fail(
        ErrnoToStatus(errno, "cannot replace " + path + " with " + temp_path));
  }
  return SyncDirectory(split.dir);
}

}  // namespace

std::string TempFilePrefix(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return "." + path + ".tmp-";
  return path.substr(0, slash + 1) + "." + path.substr(slash + 1) + ".tmp-";
}

StatusOr<WriteOutcome> WriteFileAtomically(const std::string& path,
                                           std::string_view contents,
                                           const WriteOptions& options) {
  GCUSHARE_ASSIGN_OR_RETURN(SplitPath split, Split(path));
  GCUSHARE_ASSIGN_OR_RETURN(std::optional<ExistingFile> existing,
                            ReadExisting(path));
  GCUSHARE_RETURN_IF_ERROR(RemoveLeftoverTempFiles(split));
  if (existing && existing->contents == contents &&
      existing->mode == (options.mode & 07777)) {
    return WriteOutcome::kUnchanged;
  }
  GCUSHARE_RETURN_IF_ERROR(
      WriteThroughTempFile(path, split, contents, options));
  return WriteOutcome::kWritten;
}

}  // namespace gcushare::fs
