// Creating a directory and its missing parents, like `mkdir -p`.
//
// Used for spec directories such as /var/run/cdi, which lives on a tmpfs and
// is gone after a reboot until someone creates it again.
//
// Thread-safety: stateless; concurrent calls for the same path are fine (a
// directory created by someone else in between counts as success). Failure:
// a Status naming the component that could not be created and the errno
// text ("cannot create directory /x/y: Not a directory"). Never throws.
#ifndef GCUSHARE_FS_MAKE_DIRS_H_
#define GCUSHARE_FS_MAKE_DIRS_H_

#include <sys/types.h>

#include <string>

#include "status/status.h"

namespace gcushare::fs {

// Makes `path` and any missing parents with `mode` (before umask). OK when
// `path` already is a directory (or a symlink to one); an error when it or
// a parent exists and is not a directory.
Status MakeDirectories(const std::string& path, mode_t mode = 0755);

}  // namespace gcushare::fs

#endif  // GCUSHARE_FS_MAKE_DIRS_H_
