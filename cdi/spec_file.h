// Loading CDI spec files as a runtime would: find them in spec directories,
// read, parse and validate them, and say what they declare.
//
// Thread-safety: stateless; safe from any thread. Failure: a Status whose
// message starts with the file's path (and gives the line for syntax errors,
// the JSON field path for rule violations). Never throws.
#ifndef GCUSHARE_CDI_SPEC_FILE_H_
#define GCUSHARE_CDI_SPEC_FILE_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "status/status.h"

namespace gcushare::cdi {

// A valid spec file and what it declares.
struct LoadedSpec {
  std::string path;
  nlohmann::json tree;
  std::string cdi_version;                // As declared, e.g. "0.5.0".
  std::string kind;                       // "enflame.com/gcu"
  std::vector<std::string> device_names;  // In file order: "0", "1", ...

  // "<kind>=<name>" for every device, in file order.
  std::vector<std::string> QualifiedNames() const;
};

// Reads, parses and validates `path`. Errors read "<path>: <problem>" or
// "<path> line <n>: <problem>".
StatusOr<LoadedSpec> LoadSpecFile(const std::string& path);

// The spec files a runtime would read in `dir`: top-level regular files (or
// symlinks to them) ending in ".json" or ".yaml" (not ".yml"), as
// "<dir>/<name>", sorted by name. A missing directory has no files. Other
// errors (e.g. `dir` is a file) name the directory.
StatusOr<std::vector<std::string>> FindSpecFiles(const std::string& dir);

}  // namespace gcushare::cdi

#endif  // GCUSHARE_CDI_SPEC_FILE_H_
