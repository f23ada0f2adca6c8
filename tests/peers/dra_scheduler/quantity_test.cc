#include "tests/peers/dra_scheduler/quantity.h"

#include <gtest/gtest.h>

namespace gcushare::dra_scheduler {
namespace {

struct Canonical {
  const char* in;
  const char* out;
};

// The canonical forms apimachinery writes (resource.Quantity.String()).
TEST(QuantityTest, ParsesAndWritesCanonicalForms) {
  const Canonical cases[] = {
      {"0", "0"},
      {"16Gi", "16Gi"},
      {"1024Mi", "1Gi"},
      {"1.5Gi", "1536Mi"},
      {"0.1Gi", "107374182400m"},
      {"0.5Ki", "512"},
      {"1023", "1023"},
      {"1000", "1k"},
      {"1500m", "1500m"},
      {"1.5", "1500m"},
      {"0.001", "1m"},
      {"1e3", "1e3"},
      {"1E3", "1e3"},
      {"100e-3", "100e-3"},
      {"+4Gi", "4Gi"},
      {"-4Gi", "-4Gi"},
      {"2048", "2048"},
      {"1M", "1M"},
      {"1000k", "1M"},
      {"12E", "12E"},
      {"1n", "1n"},
      {"0.5n", "1n"},  // Rounded up to the smallest unit.
      {"5Mi", "5Mi"},
      {"1536Ki", "1536Ki"},
      {"17179869184", "17179869184"},
  };
  for (const Canonical& c : cases) {
    auto q = Quantity::Parse(c.in);
    ASSERT_TRUE(q.ok()) << c.in << ": " << q.status().message();
    EXPECT_EQ(q->ToString(), c.out) << c.in;
  }
}

TEST(QuantityTest, RejectsMalformedText) {
  for (const char* text : {"", "Gi", "1.2.3", "1Gb", "1 Gi", "--1", "1e", "1e+",
                           "1ee3", "1i", ".", "1e9999"}) {
    auto q = Quantity::Parse(text);
    EXPECT_FALSE(q.ok()) << text;
    if (!q.ok()) {
      EXPECT_NE(q.status().message().find(std::string("\"") + text + "\""),
                std::string::npos)
          << q.status().message();
    }
  }
}

TEST(QuantityTest, ComparesByValueAcrossFormats) {
  EXPECT_EQ(*Quantity::Parse("1Gi"), *Quantity::Parse("1073741824"));
  EXPECT_EQ(*Quantity::Parse("1k"), *Quantity::Parse("1000"));
  EXPECT_LT(*Quantity::Parse("999"), *Quantity::Parse("1k"));
  EXPECT_GT(*Quantity::Parse("1Gi"), *Quantity::Parse("1G"));
  EXPECT_EQ(Quantity::Parse("4Gi")->Compare(*Quantity::Parse("4Gi")), 0);
}

TEST(QuantityTest, SumKeepsTheFirstFormatUnlessZero) {
  Quantity sum = Quantity();
  sum = sum.Plus(*Quantity::Parse("4Gi"));
  EXPECT_EQ(sum.format(), QuantityFormat::kBinarySI);
  sum = sum.Plus(*Quantity::Parse("8Gi"));
  sum = sum.Plus(*Quantity::Parse("4Gi"));
  EXPECT_EQ(sum.ToString(), "16Gi");
  EXPECT_EQ(sum, *Quantity::Parse("16Gi"));
}

TEST(QuantityTest, CeilingValues) {
  EXPECT_EQ(Quantity::Parse("1500m")->CeilValue(), 2);
  EXPECT_EQ(Quantity::Parse("0.1Gi")->CeilValue(), 107374183);
  EXPECT_EQ(Quantity::Parse("0.1Gi")->CeilMilliValue(), 107374182400);
  EXPECT_TRUE(Quantity::Parse("0.1Gi")->IsWholeMilli());
  EXPECT_FALSE(Quantity::Parse("1u")->IsWholeMilli());
  EXPECT_EQ(Quantity::FromInt(3, QuantityFormat::kBinarySI).ToString(), "3");
  EXPECT_EQ(Quantity::FromInt(4096, QuantityFormat::kBinarySI).ToString(),
            "4Ki");
  EXPECT_EQ(Quantity::FromMilli(1500, QuantityFormat::kDecimalSI).ToString(),
            "1500m");
}

}  // namespace
}  // namespace gcushare::dra_scheduler
