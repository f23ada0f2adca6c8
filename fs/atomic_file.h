// Atomic replacement of a small file (CDI specs, state files).
//
// WriteFileAtomically writes the new contents to a temp file in the target's
// directory, fsyncs it, renames it over the target and fsyncs the directory,
// so a reader (a container runtime scanning /var/run/cdi) sees either the old
// file or the new one, never a partial one, even if the writer is killed or
// the machine loses power. The temp file is named
// ".<target name>.tmp-XXXXXX": it is hidden and does not end in .json or
// .yaml, so CDI spec scanners never read it.
//
// Ownership: the caller owns nothing afterwards; no file descriptor is kept.
// Thread-safety: stateless and safe to call from several threads for
// different targets. Two writers of the SAME target (threads or processes)
// must be serialised by the caller: each removes the other's leftover temp
// files before writing.
// Failure: returns a Status naming the path and the errno text ("cannot
// create temp file in /x: Permission denied") and leaves any existing target
// untouched; the temp file is removed on every error path. Never throws.
#ifndef GCUSHARE_FS_ATOMIC_FILE_H_
#define GCUSHARE_FS_ATOMIC_FILE_H_

#include <sys/types.h>

#include <functional>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::fs {

enum class WriteOutcome {
  kWritten,    // The target now holds the new contents.
  kUnchanged,  // The target already held exactly these bytes and mode.
};

struct WriteOptions {
  // Permission bits of the written file (umask is not applied).
  mode_t mode = 0644;
  // Test hook: called after the temp file is complete and fsynced, just
  // before the rename. Lets a test kill the writer at the worst moment.
  std::function<void()> before_rename;
};

// Writes `contents` to `path` atomically (see above). When the target already
// has exactly `contents` and `options.mode`, nothing is written and the
// result is kUnchanged (its inode and mtime stay as they were). Temp files
// left by an earlier writer of the same target that was killed are removed
// first.
StatusOr<WriteOutcome> WriteFileAtomically(const std::string& path,
                                           std::string_view contents,
                                           const WriteOptions& options = {});

// The prefix of the temp files used for `path`: "<dir>/.<name>.tmp-". Exposed
// for tests.
std::string TempFilePrefix(const std::string& path);

}  // namespace gcushare::fs

#endif  // GCUSHARE_FS_ATOMIC_FILE_H_
