#include "efml/scan_card_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "efml/card.h"
#include "status/status.h"
#include "testing/scratch_dir.h"

namespace gcushare::efml {
namespace {

using ::gcushare::testing::ScratchDir;

using ::testing::HasSubstr;

constexpr char kPci[] = "sys/bus/pci/devices/";

// Adds card `index` at PCI address `bdf` under driver dir `driver`, with its
// /dev node.
void AddCard(ScratchDir& root, const std::string& bdf,
             const std::string& driver, uint32_t index,
             const std::string& dev = "") {
  std::string gcu = kPci + bdf + "/" + driver + "/gcu" + std::to_string(index);
  root.MakeDir(gcu);
  if (!dev.empty()) root.WriteFile(gcu + "/dev", dev);
  root.WriteFile("dev/gcu" + std::to_string(index), "");
}

TEST(ScanCardSourceTest, FindsCardsUnderBothDriverDirectories) {
  ScratchDir root;
  AddCard(root, "0000:3d:00.0", "zixiao", 1, "238:1\n");
  root.WriteFile(std::string(kPci) + "0000:3d:00.0/numa_node", "1\n");
  root.WriteFile(std::string(kPci) + "0000:3d:00.0/zixiao/gcu1/mem_total_mib",
                 "32768\n");
  root.WriteFile(std::string(kPci) + "0000:3d:00.0/zixiao/gcu1/uuid",
                 "GCU-REAL-1\n");
  AddCard(root, "0000:01:00.0", "enflame", 0, "238:0\n");
  root.WriteFile(std::string(kPci) + "0000:01:00.0/numa_node", "-1\n");

  ScanCardSource source(root.path(), 16384);
  EXPECT_EQ(source.Name(), "scan");
  StatusOr<Inventory> inventory = source.Discover();
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  ASSERT_EQ(inventory->cards.size(), 2u);

  const Card& c0 = inventory->cards[0];
  EXPECT_EQ(c0.index, 0u);
  EXPECT_EQ(c0.pci_address, "0000:01:00.0");
  EXPECT_EQ(c0.device.path, "/dev/gcu0");
  EXPECT_EQ(c0.device.major, 238u);
  EXPECT_EQ(c0.device.minor, 0u);
  EXPECT_FALSE(c0.numa_node.has_value());  // -1 means unknown.
  EXPECT_EQ(c0.memory_mib, 16384u);        // The default.
  EXPECT_EQ(c0.uuid, "GCU-PCI-0000:01:00.0");
  EXPECT_TRUE(c0.healthy);

  const Card& c1 = inventory->cards[1];
  EXPECT_EQ(c1.index, 1u);
  EXPECT_EQ(c1.pci_address, "0000:3d:00.0");
  EXPECT_EQ(c1.device.path, "/dev/gcu1");
  EXPECT_EQ(c1.device.major, 238u);
  EXPECT_EQ(c1.device.minor, 1u);
  EXPECT_EQ(c1.numa_node, 1);
  EXPECT_EQ(c1.memory_mib, 32768u);  // From mem_total_mib.
  EXPECT_EQ(c1.uuid, "GCU-REAL-1");
  EXPECT_TRUE(c1.healthy);

  EXPECT_TRUE(inventory->control_nodes.empty());
}

TEST(ScanCardSourceTest, IgnoresOtherNamesAndLeavesMissingFieldsUnknown) {
  ScratchDir root;
  AddCard(root, "0000:01:00.0", "enflame", 2);  // No dev file, no numa_node.
  root.MakeDir(std::string(kPci) + "0000:01:00.0/enflame/gcuctl");
  root.MakeDir(std::string(kPci) + "0000:01:00.0/enflame/gcu3x");
  root.MakeDir(std::string(kPci) + "0000:01:00.0/other/gcu4");
  root.MakeDir(std::string(kPci) + "0000:02:00.0/net");

  StatusOr<Inventory> inventory = ScanCardSource(root.path(), 1024).Discover();
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  ASSERT_EQ(inventory->cards.size(), 1u);
  const Card& card = inventory->cards[0];
  EXPECT_EQ(card.index, 2u);
  EXPECT_FALSE(card.device.major.has_value());
  EXPECT_FALSE(card.device.minor.has_value());
  EXPECT_FALSE(card.numa_node.has_value());
}

TEST(ScanCardSourceTest, MissingMemoryAsksForScanMemoryMib) {
  ScratchDir root;
  AddCard(root, "0000:01:00.0", "enflame", 0, "238:0\n");
  StatusOr<Inventory> inventory = ScanCardSource(root.path(), 0).Discover();
  ASSERT_FALSE(inventory.ok());
  EXPECT_EQ(inventory.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(inventory.status().message(), HasSubstr("--scan-memory-mib"));
  EXPECT_THAT(inventory.status().message(), HasSubstr("mem_total_mib"));
}

TEST(ScanCardSourceTest, MemoryFileMakesTheDefaultUnnecessary) {
  ScratchDir root;
  AddCard(root, "0000:01:00.0", "enflame", 0, "238:0\n");
  root.WriteFile(std::string(kPci) + "0000:01:00.0/enflame/gcu0/mem_total_mib",
                 "16384");
  StatusOr<Inventory> inventory = ScanCardSource(root.path(), 0).Discover();
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  EXPECT_EQ(inventory->cards.at(0).memory_mib, 16384u);
}

TEST(ScanCardSourceTest, VanishedDevNodeIsUnhealthyNotDropped) {
  ScratchDir root;
  AddCard(root, "0000:01:00.0", "enflame", 0, "238:0\n");
  AddCard(root, "0000:02:00.0", "enflame", 1, "238:1\n");
  ScanCardSource source(root.path(), 1024);
  StatusOr<Inventory> before = source.Discover();
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_TRUE(before->cards.at(1).healthy);

  root.Remove("dev/gcu1");
  StatusOr<Inventory> after = source.Discover();
  ASSERT_TRUE(after.ok()) << after.status();
  ASSERT_EQ(after->cards.size(), 2u);
  EXPECT_TRUE(after->cards[0].healthy);
  EXPECT_EQ(after->cards[1].index, 1u);
  EXPECT_FALSE(after->cards[1].healthy);
}

TEST(ScanCardSourceTest, ReportsGcuctlControlNodeWithoutRootPrefix) {
  ScratchDir root;
  AddCard(root, "0000:01:00.0", "enflame", 0, "238:0\n");
  root.WriteFile("dev/gcuctl", "");
  StatusOr<Inventory> inventory = ScanCardSource(root.path(), 1024).Discover();
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  ASSERT_EQ(inventory->control_nodes.size(), 1u);
  EXPECT_EQ(inventory->control_nodes[0].path, "/dev/gcuctl");
}

TEST(ScanCardSourceTest, EmptyTreeIsNotFoundNamingTheDirectory) {
  ScratchDir root;
  root.MakeDir(kPci);
  StatusOr<Inventory> inventory = ScanCardSource(root.path(), 1024).Discover();
  ASSERT_FALSE(inventory.ok());
  EXPECT_EQ(inventory.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(inventory.status().message(),
              HasSubstr(root.path() + "/sys/bus/pci/devices"));
}

TEST(ScanCardSourceTest, MissingSysfsIsNotFound) {
  ScratchDir root;
  StatusOr<Inventory> inventory = ScanCardSource(root.path(), 1024).Discover();
  ASSERT_FALSE(inventory.ok());
  EXPECT_EQ(inventory.status().code(), StatusCode::kNotFound);
}

TEST(ScanCardSourceTest, MalformedDevFileNamesTheFile) {
  ScratchDir root;
  AddCard(root, "0000:01:00.0", "enflame", 0, "garbage\n");
  StatusOr<Inventory> inventory = ScanCardSource(root.path(), 1024).Discover();
  ASSERT_FALSE(inventory.ok());
  EXPECT_EQ(inventory.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(inventory.status().message(),
            root.path() + "/" + kPci +
                "0000:01:00.0/enflame/gcu0/dev: expected major:minor, got "
                "\"garbage\"");
}

TEST(ScanCardSourceTest, SameIndexTwiceIsAnError) {
  ScratchDir root;
  AddCard(root, "0000:01:00.0", "enflame", 0, "238:0\n");
  AddCard(root, "0000:02:00.0", "zixiao", 0, "238:0\n");
  root.WriteFile(std::string(kPci) + "0000:02:00.0/zixiao/gcu0/uuid", "B");
  StatusOr<Inventory> inventory = ScanCardSource(root.path(), 1024).Discover();
  ASSERT_FALSE(inventory.ok());
  EXPECT_THAT(inventory.status().message(),
              HasSubstr("card 0: index appears more than once"));
}

}  // namespace
}  // namespace gcushare::efml
