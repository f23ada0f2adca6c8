#include "json/string_writer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace gcushare::json {
namespace {

std::string Written(std::string_view text) {
  std::string out = "x";  // Appends, never replaces.
  AppendJsonString(text, out);
  return out.substr(1);
}

TEST(AppendJsonStringTest, SameBytesAsNlohmannDump) {
  std::string all_bytes_below_0x80;
  for (int c = 0; c < 0x80; ++c) all_bytes_below_0x80 += static_cast<char>(c);
  for (const std::string& text :
       {std::string(), std::string("node-1"), std::string("a\"b\\c"),
        std::string("tab\there\nnew\rret\bback\fform"),
        std::string("\x01\x1f\x7f", 3), std::string("\0mid", 4),
        std::string("caf\xc3\xa9 \xe2\x82\xac"), all_bytes_below_0x80}) {
    EXPECT_EQ(Written(text), nlohmann::json(text).dump()) << text;
  }
}

// Texts of every length up to 40 with a byte to escape (or UTF-8) at
// every position: the eight-bytes-at-a-time scan must miss none.
TEST(AppendJsonStringTest, EveryPositionOfEveryLength) {
  for (const std::string& odd :
       {std::string("\""), std::string("\\"), std::string("\n"),
        std::string("\x1f"), std::string("\x01"), std::string("\x7f"),
        std::string("\xc3\xa9"), std::string(" "), std::string("!")}) {
    for (size_t length = 0; length <= 40; ++length) {
      for (size_t at = 0; at <= length; ++at) {
        std::string text =
            std::string(at, 'n') + odd + std::string(length - at, 'x');
        ASSERT_EQ(Written(text), nlohmann::json(text).dump()) << text;
      }
    }
  }
}

TEST(AppendJsonStringTest, ParsesBackToTheText) {
  const std::string text = "GCU \"binpack\": node\\x \x02 holds";
  EXPECT_EQ(nlohmann::json::parse(Written(text)).get<std::string>(), text);
}

}  // namespace
}  // namespace gcushare::json
