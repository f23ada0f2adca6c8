#include <set>
#include <string>
#include <vector>

#include "fuzz/dictionary.h"
#include "fuzz/mutator.h"
#include "gtest/gtest.h"

namespace gcushare::fuzz {
namespace {

TEST(ParseDictionaryTest, ReadsTokensWithEscapesAndSkipsComments) {
  StatusOr<std::vector<std::string>> tokens =
      ParseDictionary("# comment\n\n\"a\"\nname=\"b\\\"c\"\n  \"\\x41\\\\\"\n");
  ASSERT_TRUE(tokens.ok()) << tokens.status().ToString();
  EXPECT_EQ(*tokens, (std::vector<std::string>{"a", "b\"c", "A\\"}));
}

TEST(ParseDictionaryTest, RejectsMalformedLineNamingIt) {
  StatusOr<std::vector<std::string>> tokens =
      ParseDictionary("\"ok\"\nnot quoted\n");
  ASSERT_FALSE(tokens.ok());
  EXPECT_EQ(tokens.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(tokens.status().message().find("line 2"), std::string::npos);
  EXPECT_FALSE(ParseDictionary("\"bad\\q\"").ok());
  EXPECT_FALSE(ParseDictionary("\"x\" trailing").ok());
}

TEST(MutatorTest, SameSeedSameInputsAndTheyVary) {
  const std::vector<std::string> corpus = {"{\"a\":1}", "[1,2,3]"};
  Mutator a(42, {"TOKEN"});
  Mutator b(42, {"TOKEN"});
  std::set<std::string> distinct;
  bool saw_token = false;
  for (int i = 0; i < 500; ++i) {
    const std::string x = a.Mutate(corpus);
    ASSERT_EQ(x, b.Mutate(corpus));
    EXPECT_LE(x.size(), Mutator::kMaxSize);
    distinct.insert(x);
    saw_token = saw_token || x.find("TOKEN") != std::string::npos;
  }
  EXPECT_GT(distinct.size(), 100u);
  EXPECT_TRUE(saw_token);
}

// Numbers in an input get replaced by their extremes, whole: the campaigns'
// replay reaches 64-bit limits and int32-edge exponents in every numeric
// field, not only where a dictionary token happens to land.
TEST(MutatorTest, ReplacesNumbersWithExtremes) {
  const std::vector<std::string> corpus = {"{\"a\":12,\"b\":\"4Gi\"}"};
  Mutator mutator(7, {});
  std::set<std::string> seen;
  for (int i = 0; i < 20000; ++i) seen.insert(mutator.Mutate(corpus));
  EXPECT_TRUE(seen.count("{\"a\":18446744073709551615,\"b\":\"4Gi\"}"));
  EXPECT_TRUE(seen.count("{\"a\":-9223372036854775808,\"b\":\"4Gi\"}"));
  EXPECT_TRUE(seen.count("{\"a\":12,\"b\":\"1.5e-2147483648Gi\"}"));
  EXPECT_TRUE(seen.count("{\"a\":-0,\"b\":\"4Gi\"}"));
}

}  // namespace
}  // namespace gcushare::fuzz
