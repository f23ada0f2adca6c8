#include "cdi/yaml_scalar.h"

#include <cmath>
#include <limits>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;
using ::testing::HasSubstr;

Json Plain(std::string_view text) {
  StatusOr<Json> value = ResolvePlainScalar(text);
  EXPECT_TRUE(value.ok()) << text << ": " << value.status();
  return value.ok() ? *value : Json("<error>");
}

TEST(YamlScalarTest, CoreSchemaNullsAndBooleans) {
  for (const char* text : {"", "~", "null", "Null", "NULL"}) {
    EXPECT_TRUE(Plain(text).is_null()) << text;
  }
  for (const char* text : {"true", "True", "TRUE"}) {
    EXPECT_EQ(Plain(text), Json(true)) << text;
  }
  for (const char* text : {"false", "False", "FALSE"}) {
    EXPECT_EQ(Plain(text), Json(false)) << text;
  }
  // YAML 1.1 words are strings in the 1.2 core schema.
  for (const char* text : {"yes", "no", "on", "off", "y", "nULL", "tRUE"}) {
    EXPECT_EQ(Plain(text), Json(text)) << text;
  }
}

TEST(YamlScalarTest, CoreSchemaIntegers) {
  EXPECT_EQ(Plain("0"), Json(0u));
  EXPECT_TRUE(Plain("0").is_number_integer());
  EXPECT_EQ(Plain("234"), Json(234));
  EXPECT_EQ(Plain("+7"), Json(7));
  EXPECT_EQ(Plain("-12"), Json(-12));
  EXPECT_EQ(Plain("007"), Json(7));  // Decimal in 1.2, not octal.
  EXPECT_EQ(Plain("0o17"), Json(15));
  EXPECT_EQ(Plain("0x1F"), Json(31));
  EXPECT_EQ(Plain("18446744073709551615"),
            Json(std::numeric_limits<uint64_t>::max()));
  EXPECT_EQ(Plain("-9223372036854775808"),
            Json(std::numeric_limits<int64_t>::min()));
  EXPECT_THAT(ResolvePlainScalar("18446744073709551616").status().message(),
              HasSubstr("does not fit in 64 bits"));
  EXPECT_THAT(ResolvePlainScalar("-9223372036854775809").status().message(),
              HasSubstr("does not fit in 64 bits"));
  // Not integers in the core schema: strings.
  for (const char* text :
       {"0x", "0o8", "1_000", "0b101", "1:20", "12a", "--1", "0X1F"}) {
    EXPECT_EQ(Plain(text), Json(text)) << text;
  }
}

TEST(YamlScalarTest, CoreSchemaFloats) {
  EXPECT_EQ(Plain("1.5"), Json(1.5));
  EXPECT_TRUE(Plain("1.5").is_number_float());
  EXPECT_EQ(Plain("-2e3"), Json(-2000.0));
  EXPECT_EQ(Plain(".5"), Json(0.5));
  EXPECT_EQ(Plain("1."), Json(1.0));
  EXPECT_EQ(Plain("+1.0E+2"), Json(100.0));
  EXPECT_TRUE(std::isinf(Plain(".inf").get<double>()));
  EXPECT_LT(Plain("-.Inf").get<double>(), 0);
  EXPECT_TRUE(std::isnan(Plain(".NaN").get<double>()));
  EXPECT_TRUE(std::isinf(Plain("1e999").get<double>()));
  for (const char* text : {".", "1e", "e5", "1.2.3", "inf", "nan", "0.1.0"}) {
    EXPECT_EQ(Plain(text), Json(text)) << text;
  }
}

TEST(YamlScalarTest, OtherTextIsAString) {
  EXPECT_EQ(Plain("GCU-U0000000001"), Json("GCU-U0000000001"));
  EXPECT_EQ(Plain("/dev/gcu0"), Json("/dev/gcu0"));
  EXPECT_EQ(Plain("0.5.0"), Json("0.5.0"));
}

TEST(YamlScalarTest, ExplicitTags) {
  EXPECT_EQ(*ResolveTaggedScalar("tag:yaml.org,2002:str", "0"), Json("0"));
  EXPECT_EQ(*ResolveTaggedScalar("!!str", "true"), Json("true"));
  EXPECT_EQ(*ResolveTaggedScalar("tag:yaml.org,2002:int", "0x10"), Json(16));
  EXPECT_EQ(*ResolveTaggedScalar("tag:yaml.org,2002:float", "3"), Json(3.0));
  EXPECT_TRUE(
      ResolveTaggedScalar("tag:yaml.org,2002:float", "3")->is_number_float());
  EXPECT_EQ(*ResolveTaggedScalar("tag:yaml.org,2002:bool", "True"), Json(true));
  EXPECT_TRUE(ResolveTaggedScalar("tag:yaml.org,2002:null", "~")->is_null());
  EXPECT_THAT(
      ResolveTaggedScalar("tag:yaml.org,2002:int", "x").status().message(),
      HasSubstr("\"x\" is not a valid int"));
  EXPECT_THAT(ResolveTaggedScalar("!custom", "x").status().message(),
              HasSubstr("unsupported tag !custom"));
}

TEST(YamlScalarTest, NeedsQuoting) {
  for (const char* text :
       {"",   "0",    "17",   "-1",  "+1", ".5", ".inf",  "1:20", "0x1F",
        "~",  "null", "True", "yes", "No", "on", "OFF",   "y",    "N",
        "-",  "*a",   "&a",   "!x",  "@x", "%x", "`x",    "'x",   "\"x",
        "[x", "{x",   "|",    ">",   "#x", " x", "0.5.0", "_x",   ":x"}) {
    EXPECT_TRUE(NeedsQuoting(text)) << "\"" << text << "\"";
  }
  for (const char* text :
       {"all", "GCU-U0000000001", "/dev/gcu0", "ENFLAME_VISIBLE_DEVICES=0",
        "enflame.com/gcu", "c", "nully", "yesterday"}) {
    EXPECT_FALSE(NeedsQuoting(text)) << text;
  }
}

}  // namespace
}  // namespace gcushare::cdi
