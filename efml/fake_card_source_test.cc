#include "efml/fake_card_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <string>

#include "efml/card.h"
#include "status/status.h"
#include "testing/scratch_dir.h"

namespace gcushare::efml {
namespace {

using ::gcushare::testing::ScratchDir;

using ::testing::HasSubstr;

constexpr char kFile[] = "cards.yaml";

TEST(ParseFakeCardsTest, ReadsEveryFieldAndSortsByIndex) {
  StatusOr<Inventory> inventory = ParseFakeCards(R"(cards:
- index: 1
  uuid: GCU-B
  memoryMiB: 32768
  device: /dev/custom1
  numa: 1
  healthy: false
- index: 0
  uuid: GCU-A
  memoryMiB: 16384
  device: /dev/gcu0
  numa: 0
  healthy: true
)",
                                                 kFile);
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  ASSERT_EQ(inventory->cards.size(), 2u);
  const Card& a = inventory->cards[0];
  EXPECT_EQ(a.index, 0u);
  EXPECT_EQ(a.uuid, "GCU-A");
  EXPECT_EQ(a.memory_mib, 16384u);
  EXPECT_EQ(a.device.path, "/dev/gcu0");
  EXPECT_EQ(a.numa_node, 0);
  EXPECT_TRUE(a.healthy);
  const Card& b = inventory->cards[1];
  EXPECT_EQ(b.index, 1u);
  EXPECT_EQ(b.uuid, "GCU-B");
  EXPECT_EQ(b.memory_mib, 32768u);
  EXPECT_EQ(b.device.path, "/dev/custom1");
  EXPECT_EQ(b.numa_node, 1);
  EXPECT_FALSE(b.healthy);
  // Parsing is pure: no device numbers, no PCI address, no control nodes.
  EXPECT_FALSE(b.device.major.has_value());
  EXPECT_TRUE(b.pci_address.empty());
  EXPECT_TRUE(inventory->control_nodes.empty());
}

TEST(ParseFakeCardsTest, AppliesDefaults) {
  StatusOr<Inventory> inventory = ParseFakeCards(
      "cards:\n- index: 7\n  uuid: GCU-7\n  memoryMiB: 1024\n", kFile);
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  ASSERT_EQ(inventory->cards.size(), 1u);
  const Card& card = inventory->cards[0];
  EXPECT_EQ(card.device.path, "/dev/gcu7");
  EXPECT_TRUE(card.healthy);
  EXPECT_FALSE(card.numa_node.has_value());
}

TEST(ParseFakeCardsTest, AcceptsFlowStyleAndYamlBooleans) {
  StatusOr<Inventory> inventory = ParseFakeCards(
      "cards: [{index: 0, uuid: U0, memoryMiB: 8, healthy: no}]\n", kFile);
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  ASSERT_EQ(inventory->cards.size(), 1u);
  EXPECT_FALSE(inventory->cards[0].healthy);
}

TEST(ParseFakeCardsTest, EmptyCardListIsAHostWithoutCards) {
  StatusOr<Inventory> inventory = ParseFakeCards("cards: []\n", kFile);
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  EXPECT_TRUE(inventory->cards.empty());
}

struct MalformedCase {
  std::string name;
  std::string yaml;
  std::string message;  // The whole expected message.
};

class ParseFakeCardsMalformedTest
    : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(ParseFakeCardsMalformedTest, NamesFileLineAndProblem) {
  const MalformedCase& c = GetParam();
  StatusOr<Inventory> inventory = ParseFakeCards(c.yaml, "/etc/cards.yaml");
  ASSERT_FALSE(inventory.ok());
  EXPECT_EQ(inventory.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(inventory.status().message(), c.message);
}

constexpr char kPrefix[] = "fake cards file /etc/cards.yaml line ";

INSTANTIATE_TEST_SUITE_P(
    Cases, ParseFakeCardsMalformedTest,
    ::testing::Values(
        MalformedCase{"EmptyFile", "",
                      std::string(kPrefix) +
                          "1: file is empty; expected a map with key cards"},
        MalformedCase{
            "TopLevelList", "- index: 0\n",
            std::string(kPrefix) + "1: expected a map with key cards"},
        MalformedCase{"MissingCards", "# comment\ncard:\n- index: 0\n",
                      std::string(kPrefix) + "2: missing key cards"},
        MalformedCase{
            "UnknownTopLevelKey", "cards: []\nversion: 2\n",
            std::string(kPrefix) + "2: unknown key version (expected cards)"},
        MalformedCase{
            "CardsNotAList", "cards: 5\n",
            std::string(kPrefix) + "1: cards must be a list of cards"},
        MalformedCase{
            "CardsEmptyValue", "cards:\n",
            std::string(kPrefix) + "1: cards must be a list of cards"},
        MalformedCase{"CardNotAMap", "cards:\n- 5\n",
                      std::string(kPrefix) +
                          "2: each card must be a map with keys index, uuid, "
                          "memoryMiB, device, numa, healthy"},
        MalformedCase{"MissingIndex", "cards:\n- uuid: A\n  memoryMiB: 1\n",
                      std::string(kPrefix) + "2: card is missing index"},
        MalformedCase{"MissingUuid", "cards:\n- index: 0\n  memoryMiB: 1\n",
                      std::string(kPrefix) + "2: card is missing uuid"},
        MalformedCase{"MissingMemory",
                      "cards:\n- index: 0\n  uuid: A\n- index: 1\n  uuid: B\n",
                      std::string(kPrefix) + "2: card is missing memoryMiB"},
        MalformedCase{"NonIntegerIndex",
                      "cards:\n- index: zero\n  uuid: A\n  memoryMiB: 1\n",
                      std::string(kPrefix) +
                          "2: index must be a non-negative integer, got "
                          "\"zero\""},
        MalformedCase{"FractionalIndex",
                      "cards:\n- index: 1.5\n  uuid: A\n  memoryMiB: 1\n",
                      std::string(kPrefix) +
                          "2: index must be a non-negative integer, got "
                          "\"1.5\""},
        MalformedCase{"NegativeIndex",
                      "cards:\n- uuid: A\n  index: -1\n  memoryMiB: 1\n",
                      std::string(kPrefix) +
                          "3: index must be a non-negative integer, got -1"},
        MalformedCase{"IndexWithoutValue",
                      "cards:\n- index:\n  uuid: A\n  memoryMiB: 1\n",
                      std::string(kPrefix) + "2: index has no value"},
        MalformedCase{"ZeroMemory",
                      "cards:\n- index: 0\n  uuid: A\n  memoryMiB: 0\n",
                      std::string(kPrefix) +
                          "4: memoryMiB must be a positive integer (MiB), got "
                          "0"},
        MalformedCase{"NegativeMemory",
                      "cards:\n- index: 0\n  uuid: A\n  memoryMiB: -16\n",
                      std::string(kPrefix) +
                          "4: memoryMiB must be a positive integer (MiB), got "
                          "-16"},
        MalformedCase{"NonNumericMemory",
                      "cards:\n- index: 0\n  uuid: A\n  memoryMiB: 16GiB\n",
                      std::string(kPrefix) +
                          "4: memoryMiB must be a positive integer (MiB), got "
                          "\"16GiB\""},
        MalformedCase{"DuplicateIndex",
                      "cards:\n- index: 0\n  uuid: A\n  memoryMiB: 1\n"
                      "- index: 0\n  uuid: B\n  memoryMiB: 1\n",
                      std::string(kPrefix) +
                          "5: index 0 is used twice (first at line 2)"},
        MalformedCase{
            "DuplicateUuid",
            "cards:\n- index: 0\n  uuid: A\n  memoryMiB: 1\n"
            "- index: 1\n  uuid: A\n  memoryMiB: 1\n",
            std::string(kPrefix) + "6: uuid A is used twice (first at line 3)"},
        MalformedCase{"UnknownKeyTypo",
                      "cards:\n- index: 0\n  uuid: A\n  memoryMB: 16384\n",
                      std::string(kPrefix) +
                          "4: unknown key memoryMB (expected index, uuid, "
                          "memoryMiB, device, numa, healthy)"},
        MalformedCase{"DuplicateKey",
                      "cards:\n- index: 0\n  uuid: A\n  memoryMiB: 1\n"
                      "  index: 1\n",
                      std::string(kPrefix) + "5: duplicate key index"},
        MalformedCase{"RelativeDevice",
                      "cards:\n- index: 0\n  uuid: A\n  memoryMiB: 1\n"
                      "  device: dev/gcu0\n",
                      std::string(kPrefix) +
                          "5: device path \"dev/gcu0\" must be absolute"},
        MalformedCase{"NegativeNuma",
                      "cards:\n- index: 0\n  uuid: A\n  memoryMiB: 1\n"
                      "  numa: -1\n",
                      std::string(kPrefix) +
                          "5: numa must be a non-negative integer, got -1"},
        MalformedCase{"BadHealthy",
                      "cards:\n- index: 0\n  uuid: A\n  memoryMiB: 1\n"
                      "  healthy: maybe\n",
                      std::string(kPrefix) +
                          "5: healthy must be true or false, got \"maybe\""},
        MalformedCase{"MapAsValue",
                      "cards:\n- index: 0\n  uuid: {a: 1}\n  memoryMiB: 1\n",
                      std::string(kPrefix) + "3: uuid must be a single value"}),
    [](const ::testing::TestParamInfo<MalformedCase>& info) {
      return info.param.name;
    });

struct SyntaxCase {
  std::string name;
  std::string yaml;
  int line;
};

class ParseFakeCardsSyntaxTest : public ::testing::TestWithParam<SyntaxCase> {};

TEST_P(ParseFakeCardsSyntaxTest, ReportsYamlErrorWithLine) {
  const SyntaxCase& c = GetParam();
  StatusOr<Inventory> inventory = ParseFakeCards(c.yaml, "/etc/cards.yaml");
  ASSERT_FALSE(inventory.ok());
  EXPECT_EQ(inventory.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(inventory.status().message(),
              HasSubstr(std::string(kPrefix) + std::to_string(c.line) +
                        ": YAML syntax error: "));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ParseFakeCardsSyntaxTest,
    ::testing::Values(
        SyntaxCase{"UnclosedFlowSequence",
                   "cards:\n- index: 0\n  uuid: [A\n  memoryMiB: 1\n", 4},
        SyntaxCase{"BadIndentation",
                   "cards:\n- index: 0\n  uuid: A\n memoryMiB: 1\n", 4},
        SyntaxCase{"TextAfterQuote", "cards:\n- index: 0\n  uuid: \"A\" B\n",
                   3},
        SyntaxCase{"Tab", "cards:\n- index: 0\n  uuid: A\n\tmemoryMiB: 1\n", 4},
        SyntaxCase{"UndefinedAlias",
                   "cards:\n- index: 0\n  uuid: A\n  memoryMiB: *m\n", 4}),
    [](const ::testing::TestParamInfo<SyntaxCase>& info) {
      return info.param.name;
    });

TEST(FakeCardSourceTest, MissingFileIsNotFoundNamingTheFile) {
  ScratchDir dir;
  FakeCardSource source(dir.Path("absent.yaml"));
  StatusOr<Inventory> inventory = source.Discover();
  ASSERT_FALSE(inventory.ok());
  EXPECT_EQ(inventory.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(inventory.status().message(),
              HasSubstr("fake cards file: " + dir.Path("absent.yaml")));
}

TEST(FakeCardSourceTest, MalformedFileNamesThePath) {
  ScratchDir dir;
  dir.WriteFile("cards.yaml", "cards:\n- index: 0\n  uuid: A\n");
  FakeCardSource source(dir.Path("cards.yaml"));
  StatusOr<Inventory> inventory = source.Discover();
  ASSERT_FALSE(inventory.ok());
  EXPECT_EQ(inventory.status().message(),
            "fake cards file " + dir.Path("cards.yaml") +
                " line 2: card is missing memoryMiB");
}

TEST(FakeCardSourceTest, RereadsTheFileOnEveryDiscover) {
  ScratchDir dir;
  const std::string card = "cards:\n- index: 0\n  uuid: A\n  memoryMiB: 1\n";
  dir.WriteFile("cards.yaml", card);
  FakeCardSource source(dir.Path("cards.yaml"));
  EXPECT_EQ(source.Name(), "fake");
  StatusOr<Inventory> first = source.Discover();
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(first->cards.at(0).healthy);

  dir.WriteFile("cards.yaml", card + "  healthy: false\n");
  StatusOr<Inventory> second = source.Discover();
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_FALSE(second->cards.at(0).healthy);
}

TEST(FakeCardSourceTest, FillsDeviceNumbersOnlyForExistingCharDevices) {
  struct stat st;
  ASSERT_EQ(stat("/dev/null", &st), 0);
  ASSERT_TRUE(S_ISCHR(st.st_mode));
  ScratchDir dir;
  dir.WriteFile("regular", "not a device");
  dir.WriteFile("cards.yaml",
                "cards:\n"
                "- {index: 0, uuid: A, memoryMiB: 1, device: /dev/null}\n"
                "- {index: 1, uuid: B, memoryMiB: 1, device: " +
                    dir.Path("regular") +
                    "}\n"
                    "- {index: 2, uuid: C, memoryMiB: 1, device: " +
                    dir.Path("absent") + "}\n");
  FakeCardSource source(dir.Path("cards.yaml"));
  StatusOr<Inventory> inventory = source.Discover();
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  ASSERT_EQ(inventory->cards.size(), 3u);
  EXPECT_EQ(inventory->cards[0].device.major, major(st.st_rdev));
  EXPECT_EQ(inventory->cards[0].device.minor, minor(st.st_rdev));
  EXPECT_FALSE(inventory->cards[1].device.major.has_value());
  EXPECT_FALSE(inventory->cards[2].device.major.has_value());
  EXPECT_FALSE(inventory->cards[2].device.minor.has_value());
}

TEST(ParseFakeCardsTest, DeepNestingIsAnErrorNotACrash) {
  StatusOr<Inventory> inventory = ParseFakeCards(
      "cards: " + std::string(200000, '[') + std::string(200000, ']') + "\n",
      kFile);
  ASSERT_FALSE(inventory.ok());
  EXPECT_NE(inventory.status().message().find("nested deeper than 256"),
            std::string::npos)
      << inventory.status();
}

}  // namespace
}  // namespace gcushare::efml
