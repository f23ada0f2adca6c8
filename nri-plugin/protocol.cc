#include "nri-plugin/protocol.h"

namespace gcushare::nri {

bool ValidPluginName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '+' ||
              c == '-';
    if (!ok) return false;
  }
  return true;
}

bool ValidPluginIndex(std::string_view index) {
  return index.size() == 2 && index[0] >= '0' && index[0] <= '9' &&
         index[1] >= '0' && index[1] <= '9';
}

}  // namespace gcushare::nri
