#include "efml/device_numbers.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace gcushare::efml {

void FillDeviceNumbersFromStat(const std::string& host_path, DeviceNode& node) {
  struct stat st;
  if (::stat(host_path.c_str(), &st) != 0) return;
  if (!S_ISCHR(st.st_mode)) return;
  node.major = major(st.st_rdev);
  node.minor = minor(st.st_rdev);
}

}  // namespace gcushare::efml
