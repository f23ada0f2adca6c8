// Reading a whole (small) file into memory, with errors as Status values.
#ifndef GCUSHARE_EFML_READ_FILE_H_
#define GCUSHARE_EFML_READ_FILE_H_

#include <string>

#include "status/status.h"

namespace gcushare::efml {

// The contents of `path`. A failure to open or read it is the errno-derived
// Status (NotFound for a missing file) with the message
// "<path>: <strerror>". Meant for config files and sysfs attributes, not for
// large files. Thread-safe; never throws.
StatusOr<std::string> ReadFileToString(const std::string& path);

}  // namespace gcushare::efml

#endif  // GCUSHARE_EFML_READ_FILE_H_
