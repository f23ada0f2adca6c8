// Writes GCUShare's CDI spec into a spec directory.
//
// The spec is validated (validator.h) before anything touches the disk; a
// missing spec directory is created (mode 0755: /var/run/cdi is on a tmpfs
// and gone after a reboot); the file is <dir>/enflame.com-gcu.json or .yaml,
// replaced atomically
// (fs/atomic_file.h) and left alone when it already holds the same bytes.
// The output is deterministic: the same spec always gives the same bytes
// (keys in the schema's order, see key_order.h; two-space indentation; a
// final newline).
//
// A spec dir must not hold the same devices twice (two files of equal
// priority make every shared device unusable), so after writing one format
// the writer removes our file of the other format from the same dir.
//
// Thread-safety: stateless; two writers of the same directory must be
// serialised by the caller. Failure: an invalid spec, or a directory that
// cannot be written, gives a Status naming the problem and the path, and
// leaves any existing file untouched. Never throws.
#ifndef GCUSHARE_CDI_WRITER_H_
#define GCUSHARE_CDI_WRITER_H_

#include <string>
#include <string_view>

#include "cdi/spec.h"
#include "status/status.h"

namespace gcushare::cdi {

enum class Format { kJson, kYaml };

// "json" or "yaml" (the file extension). InvalidArgument otherwise.
StatusOr<Format> ParseFormat(std::string_view name);
std::string_view FormatExtension(Format format);

// "<dir>/enflame.com-gcu.<ext>".
std::string SpecPath(std::string_view dir, Format format);

// The exact bytes written for `spec` (no validation).
std::string SerializeSpec(const Spec& spec, Format format);

struct WriteResult {
  std::string path;          // The spec file.
  bool written;              // False: the file already held these bytes.
  std::string removed_path;  // Our other-format file, if one was removed.
};

StatusOr<WriteResult> WriteSpec(const Spec& spec, std::string_view dir,
                                Format format);

}  // namespace gcushare::cdi

#endif  // GCUSHARE_CDI_WRITER_H_
