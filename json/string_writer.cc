#include "json/string_writer.h"

#include <cstdint>
#include <cstring>

namespace gcushare::json {
namespace {

constexpr uint64_t kOnes = 0x0101010101010101ull;
constexpr uint64_t kHighs = 0x8080808080808080ull;

// True when one of the 8 bytes of `word` is below 0x20, '"' or '\\' (exact
// for "any"; the classic has-zero / has-less bit tricks).
bool NeedsEscape(uint64_t word) {
  const uint64_t quote = word ^ (kOnes * '"');
  const uint64_t backslash = word ^ (kOnes * '\\');
  const uint64_t below_space = (word - kOnes * 0x20) & ~word;
  return (((quote - kOnes) & ~quote) | ((backslash - kOnes) & ~backslash) |
          below_space) &
         kHighs;
}

}  // namespace

void AppendJsonString(std::string_view text, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  size_t plain = 0;  // Start of the run of bytes copied as they are.
  size_t i = 0;
  while (i < text.size()) {
    // Eight bytes at a time while none needs escaping (names and reasons
    // are mostly plain).
    if (i + 8 <= text.size()) {
      uint64_t word;
      std::memcpy(&word, text.data() + i, 8);
      if (!NeedsEscape(word)) {
        i += 8;
        continue;
      }
    }
    const unsigned char c = static_cast<unsigned char>(text[i++]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(text.data() + plain, i - 1 - plain);
    plain = i;
    out += '\\';
    switch (c) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '\b':
        out += 'b';
        break;
      case '\f':
        out += 'f';
        break;
      case '\n':
        out += 'n';
        break;
      case '\r':
        out += 'r';
        break;
      case '\t':
        out += 't';
        break;
      default:
        out += "u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xf];
        break;
    }
  }
  out.append(text.data() + plain, text.size() - plain);
  out += '"';
}

}  // namespace gcushare::json
