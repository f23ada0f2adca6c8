#include "cdi/names.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gcushare::cdi {
namespace {

using ::testing::HasSubstr;

struct NameCase {
  std::string text;
  bool valid;
  std::string message_part;  // Checked when invalid.
};

class DeviceNameTest : public ::testing::TestWithParam<NameCase> {};

TEST_P(DeviceNameTest, FollowsTheRule) {
  const NameCase& c = GetParam();
  Status status = ValidateDeviceName(c.text);
  EXPECT_EQ(status.ok(), c.valid) << c.text << ": " << status;
  if (!c.valid) {
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(status.message(), HasSubstr(c.message_part));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Names, DeviceNameTest,
    ::testing::Values(
        NameCase{"0", true, ""}, NameCase{"17", true, ""},
        NameCase{"all", true, ""}, NameCase{"a", true, ""},
        NameCase{"GCU-U0000000001", true, ""},
        NameCase{"gpu_0.part:1-x", true, ""},  // ':' is allowed in names.
        NameCase{"", false, "must not be empty"},
        NameCase{"-a", false, "must start with a letter or digit, not '-'"},
        NameCase{"_a", false, "must start with a letter or digit, not '_'"},
        NameCase{"a-", false, "must end with a letter or digit, not '-'"},
        NameCase{"a:", false, "must end with a letter or digit, not ':'"},
        NameCase{"GCU/1", false, "'/' is not allowed"},
        NameCase{"a b", false, "' ' is not allowed"},
        NameCase{"a=b", false, "'=' is not allowed"},
        NameCase{"caf\xC3\xA9", false, "'\\xC3' is not allowed"}));

class VendorClassTest : public ::testing::TestWithParam<NameCase> {};

TEST_P(VendorClassTest, VendorAndClassShareTheRule) {
  const NameCase& c = GetParam();
  for (const Status& status :
       {ValidateVendorName(c.text), ValidateClassName(c.text)}) {
    EXPECT_EQ(status.ok(), c.valid) << c.text << ": " << status;
    if (!c.valid) {
      EXPECT_THAT(status.message(), HasSubstr(c.message_part));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Names, VendorClassTest,
    ::testing::Values(NameCase{"enflame.com", true, ""},
                      NameCase{"gcu", true, ""},
                      NameCase{"a", true, ""},  // One letter (as on HEAD).
                      NameCase{"my_vendor-2.io", true, ""},
                      NameCase{"", false, "must not be empty"},
                      NameCase{"0vendor", false, "must start with a letter"},
                      NameCase{"vendor.", false, "must end with a letter"},
                      NameCase{"ven:dor", false, "':' is not allowed"},
                      NameCase{"ven/dor", false, "'/' is not allowed"}));

TEST(KindTest, VendorSlashClass) {
  EXPECT_TRUE(ValidateKind("enflame.com/gcu").ok());
  EXPECT_TRUE(ValidateKind("vendor.com/gpu.v2").ok());  // '.' is a version
                                                        // matter.
  EXPECT_THAT(ValidateKind("enflame.com").message(), HasSubstr("no '/'"));
  EXPECT_THAT(ValidateKind("/gcu").message(),
              HasSubstr("vendor: must not be empty"));
  EXPECT_THAT(ValidateKind("enflame.com/").message(),
              HasSubstr("class: must not be empty"));
  // Split at the first '/': the class "gcu/x" contains a '/'.
  EXPECT_THAT(ValidateKind("enflame.com/gcu/x").message(),
              HasSubstr("class: '/' is not allowed"));
}

TEST(QualifiedNameTest, ParsesVendorClassAndName) {
  StatusOr<QualifiedDeviceName> parsed =
      ParseQualifiedName("enflame.com/gcu=GCU-U0000000001");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->vendor, "enflame.com");
  EXPECT_EQ(parsed->class_name, "gcu");
  EXPECT_EQ(parsed->name, "GCU-U0000000001");
  EXPECT_EQ(parsed->Kind(), "enflame.com/gcu");
  EXPECT_EQ(parsed->ToString(), "enflame.com/gcu=GCU-U0000000001");
}

TEST(QualifiedNameTest, SplitsAtFirstEqualsThenFirstSlash) {
  // "vendor/class=a=b": the name is "a=b", which is not a valid name.
  EXPECT_THAT(ParseQualifiedName("vendor.com/gpu=a=b").status().message(),
              HasSubstr("device name: '=' is not allowed"));
  // "v/c/x=0": the class is "c/x".
  EXPECT_THAT(ParseQualifiedName("v/c/x=0").status().message(),
              HasSubstr("class: '/' is not allowed"));
  // The '/' after the '=' belongs to the name.
  EXPECT_THAT(ParseQualifiedName("vendor=a/b").status().message(),
              HasSubstr("no '/' before the '='"));
}

TEST(QualifiedNameTest, RefusesPathsAndIncompleteNames) {
  EXPECT_THAT(ParseQualifiedName("/dev/gcu0").status().message(),
              HasSubstr("is a device path"));
  EXPECT_THAT(ParseQualifiedName("enflame.com/gcu").status().message(),
              HasSubstr("no '=' found"));
  EXPECT_THAT(ParseQualifiedName("enflame.com/gcu=").status().message(),
              HasSubstr("device name: must not be empty"));
  EXPECT_TRUE(IsQualifiedName("enflame.com/gcu=0"));
  EXPECT_FALSE(IsQualifiedName("0"));
  EXPECT_FALSE(IsQualifiedName("1vendor.com/gcu=0"));
}

TEST(QualifiedNameTest, QualifiedNameJoinsKindAndName) {
  EXPECT_EQ(QualifiedName("enflame.com/gcu", "0"), "enflame.com/gcu=0");
  EXPECT_EQ(QualifiedName("enflame.com/gcu", "all"), "enflame.com/gcu=all");
}

}  // namespace
}  // namespace gcushare::cdi
