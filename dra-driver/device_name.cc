#include "dra-driver/device_name.h"

#include <limits>

namespace gcushare::dra {
namespace {
constexpr std::string_view kPrefix = "gcu-";
}  // namespace

std::string DeviceName(uint32_t card_index) {
  return std::string(kPrefix) + std::to_string(card_index);
}

StatusOr<uint32_t> ParseDeviceName(std::string_view name) {
  auto bad = [&] {
    return InvalidArgumentError("device \"" + std::string(name) +
                                "\" is not a gcushare device name (gcu-<card "
                                "index>)");
  };
  if (!name.starts_with(kPrefix)) return bad();
  std::string_view digits = name.substr(kPrefix.size());
  if (digits.empty() || digits.size() > 10) return bad();
  if (digits.size() > 1 && digits[0] == '0') return bad();
  uint64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return bad();
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (value > std::numeric_limits<uint32_t>::max()) return bad();
  return static_cast<uint32_t>(value);
}

}  // namespace gcushare::dra
