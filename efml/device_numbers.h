// Device numbers (major:minor) of character device nodes.
#ifndef GCUSHARE_EFML_DEVICE_NUMBERS_H_
#define GCUSHARE_EFML_DEVICE_NUMBERS_H_

#include <string>

#include "efml/card.h"

namespace gcushare::efml {

// Sets node.major/minor from stat(host_path) when host_path exists and is a
// character device; otherwise leaves them untouched. `host_path` is where the
// node is on this filesystem (it may carry a test root prefix that
// node.path does not). Thread-safe; never fails.
void FillDeviceNumbersFromStat(const std::string& host_path, DeviceNode& node);

}  // namespace gcushare::efml

#endif  // GCUSHARE_EFML_DEVICE_NUMBERS_H_
