#include "base/base64.h"

#include <cctype>
#include <cstdint>

namespace gcushare::base {
namespace {

int SextetOf(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

StatusOr<std::string> Base64Decode(std::string_view encoded) {
  std::string out;
  out.reserve(encoded.size() * 3 / 4);
  uint32_t accumulator = 0;
  int bits = 0;
  int padding = 0;
  for (size_t i = 0; i < encoded.size(); ++i) {
    const char c = encoded[i];
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (c == '=') {
      ++padding;
      continue;
    }
    const int sextet = SextetOf(c);
    if (sextet < 0 || padding > 0) {
      return InvalidArgumentError("invalid base64 character at offset " +
                                  std::to_string(i));
    }
    accumulator = (accumulator << 6) | static_cast<uint32_t>(sextet);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((accumulator >> bits) & 0xFF));
    }
  }
  // Leftover bits: 0 (complete), 2 (one '=' expected) or 4 (two '=');
  // 6 leftover bits mean a truncated input.
  if (bits == 6 || padding > 2) {
    return InvalidArgumentError("truncated base64 input");
  }
  return out;
}

}  // namespace gcushare::base
