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

}  // namespace
}  // namespace gcushare::fuzz
