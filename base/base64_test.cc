#include "base/base64.h"

#include <gtest/gtest.h>

namespace gcushare::base {
namespace {

TEST(Base64Test, DecodesWithAndWithoutPadding) {
  EXPECT_EQ(Base64Decode("").value(), "");
  EXPECT_EQ(Base64Decode("Zg==").value(), "f");
  EXPECT_EQ(Base64Decode("Zm8=").value(), "fo");
  EXPECT_EQ(Base64Decode("Zm9v").value(), "foo");
  EXPECT_EQ(Base64Decode("Zm9vYg").value(), "foob");
  EXPECT_EQ(Base64Decode("Zm9v\nYmFy\n").value(), "foobar");
  EXPECT_EQ(Base64Decode("+/+/").value(), "\xfb\xff\xbf");
}

TEST(Base64Test, RejectsBadInput) {
  EXPECT_EQ(Base64Decode("Zm9v!").status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_NE(Base64Decode("Zm9v!").status().message().find("offset 4"),
            std::string::npos);
  EXPECT_FALSE(Base64Decode("Zm=9").ok());  // Data after padding.
  EXPECT_FALSE(Base64Decode("Z").ok());     // Truncated.
}

}  // namespace
}  // namespace gcushare::base
