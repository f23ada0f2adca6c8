#include "efml/efml_card_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include "efml/card.h"
#include "status/status.h"
#include "testing/scratch_dir.h"

namespace gcushare::efml {
namespace {

using ::gcushare::testing::ScratchDir;

using ::testing::HasSubstr;
using ::testing::StartsWith;

// A fake library built by efml/BUILD, found in the test's runfiles.
std::string FakeLibrary(const std::string& name) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  return std::string(srcdir != nullptr ? srcdir : ".") + "/gcushare/efml/" +
         name;
}

class EfmlCardSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("FAKE_EFML_INIT_RC");
    unsetenv("FAKE_EFML_MEM_RC");
    unsetenv("FAKE_EFML_HEALTH_RC");
    setenv("FAKE_EFML_CARDS",
           "GCU-A,16384,1,0,0000:01:00.0;GCU-B,32768,0,1,0001:3d:1f.7", 1);
  }

  ScratchDir root_;
};

TEST_F(EfmlCardSourceTest, ReportsCardsFromTheLibrary) {
  root_.WriteFile("dev/gcuctl", "");
  // <root>/dev/gcu0 stands for a real char device: a symlink to /dev/null.
  struct stat null_stat;
  ASSERT_EQ(stat("/dev/null", &null_stat), 0);
  std::error_code ec;
  std::filesystem::create_symlink("/dev/null", root_.Path("dev/gcu0"), ec);
  ASSERT_FALSE(ec) << ec.message();
  StatusOr<std::unique_ptr<EfmlCardSource>> source =
      EfmlCardSource::Create(FakeLibrary("libefml.so"), root_.path());
  ASSERT_TRUE(source.ok()) << source.status();
  EXPECT_EQ((*source)->Name(), "efml");
  StatusOr<Inventory> inventory = (*source)->Discover();
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  ASSERT_EQ(inventory->cards.size(), 2u);

  const Card& a = inventory->cards[0];
  EXPECT_EQ(a.index, 0u);
  EXPECT_EQ(a.uuid, "GCU-A");
  EXPECT_EQ(a.memory_mib, 16384u);
  EXPECT_TRUE(a.healthy);
  EXPECT_EQ(a.numa_node, 0);
  EXPECT_EQ(a.pci_address, "0000:01:00.0");
  EXPECT_EQ(a.device.path, "/dev/gcu0");
  EXPECT_EQ(a.device.major, major(null_stat.st_rdev));
  EXPECT_EQ(a.device.minor, minor(null_stat.st_rdev));

  const Card& b = inventory->cards[1];
  EXPECT_EQ(b.index, 1u);
  EXPECT_EQ(b.uuid, "GCU-B");
  EXPECT_EQ(b.memory_mib, 32768u);
  EXPECT_FALSE(b.healthy);
  EXPECT_EQ(b.numa_node, 1);
  EXPECT_EQ(b.pci_address, "0001:3d:1f.7");
  EXPECT_EQ(b.device.path, "/dev/gcu1");
  EXPECT_FALSE(b.device.major.has_value());  // No node in the tree.

  ASSERT_EQ(inventory->control_nodes.size(), 1u);
  EXPECT_EQ(inventory->control_nodes[0].path, "/dev/gcuctl");
}

TEST_F(EfmlCardSourceTest, DiscoverSeesHealthChanges) {
  StatusOr<std::unique_ptr<EfmlCardSource>> source =
      EfmlCardSource::Create(FakeLibrary("libefml.so"), root_.path());
  ASSERT_TRUE(source.ok()) << source.status();
  StatusOr<Inventory> before = (*source)->Discover();
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_TRUE(before->cards.at(0).healthy);

  setenv("FAKE_EFML_CARDS", "GCU-A,16384,0,0,0000:01:00.0", 1);
  StatusOr<Inventory> after = (*source)->Discover();
  ASSERT_TRUE(after.ok()) << after.status();
  ASSERT_EQ(after->cards.size(), 1u);
  EXPECT_FALSE(after->cards[0].healthy);
}

TEST_F(EfmlCardSourceTest, NegativeNumaIsUnknown) {
  setenv("FAKE_EFML_CARDS", "GCU-A,16384,1,-1,0000:01:00.0", 1);
  StatusOr<std::unique_ptr<EfmlCardSource>> source =
      EfmlCardSource::Create(FakeLibrary("libefml.so"), root_.path());
  ASSERT_TRUE(source.ok()) << source.status();
  StatusOr<Inventory> inventory = (*source)->Discover();
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  EXPECT_FALSE(inventory->cards.at(0).numa_node.has_value());
}

TEST_F(EfmlCardSourceTest, OlderLibraryLeavesOptionalFieldsUnknown) {
  StatusOr<std::unique_ptr<EfmlCardSource>> source =
      EfmlCardSource::Create(FakeLibrary("libefml_old.so"), root_.path());
  ASSERT_TRUE(source.ok()) << source.status();
  StatusOr<Inventory> inventory = (*source)->Discover();
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  ASSERT_EQ(inventory->cards.size(), 2u);
  EXPECT_EQ(inventory->cards[1].uuid, "GCU-B");
  EXPECT_FALSE(inventory->cards[1].numa_node.has_value());
  EXPECT_TRUE(inventory->cards[1].pci_address.empty());
}

TEST_F(EfmlCardSourceTest, MissingLibraryIsUnavailable) {
  StatusOr<std::unique_ptr<EfmlCardSource>> source =
      EfmlCardSource::Create(root_.Path("libefml.so"), root_.path());
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().code(), StatusCode::kUnavailable);
  EXPECT_THAT(source.status().message(),
              StartsWith("cannot load " + root_.Path("libefml.so") + ": "));
  EXPECT_THAT(source.status().message(),
              HasSubstr("No such file or directory"));
}

TEST_F(EfmlCardSourceTest, LibraryLackingARequiredSymbolIsRejected) {
  const std::string path = FakeLibrary("libefml_no_mem.so");
  StatusOr<std::unique_ptr<EfmlCardSource>> source =
      EfmlCardSource::Create(path, root_.path());
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(source.status().message(),
            "libefml.so at " + path + " lacks EfmlGetDevMem");
}

TEST_F(EfmlCardSourceTest, InitFailureNamesTheCode) {
  setenv("FAKE_EFML_INIT_RC", "6", 1);
  StatusOr<std::unique_ptr<EfmlCardSource>> source =
      EfmlCardSource::Create(FakeLibrary("libefml.so"), root_.path());
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().message(),
            "EfmlInit failed: EFML_ERROR_DRIVER_NOT_LOADED (6)");
}

TEST_F(EfmlCardSourceTest, CallFailureNamesFunctionDeviceAndCode) {
  StatusOr<std::unique_ptr<EfmlCardSource>> source =
      EfmlCardSource::Create(FakeLibrary("libefml.so"), root_.path());
  ASSERT_TRUE(source.ok()) << source.status();
  setenv("FAKE_EFML_MEM_RC", "254", 1);
  StatusOr<Inventory> inventory = (*source)->Discover();
  ASSERT_FALSE(inventory.ok());
  EXPECT_EQ(inventory.status().message(),
            "EfmlGetDevMem(0) failed: EFML_ERROR_FAIL (254)");
}

TEST_F(EfmlCardSourceTest, HealthQueryFailureMarksCardUnhealthy) {
  StatusOr<std::unique_ptr<EfmlCardSource>> source =
      EfmlCardSource::Create(FakeLibrary("libefml.so"), root_.path());
  ASSERT_TRUE(source.ok()) << source.status();
  setenv("FAKE_EFML_HEALTH_RC", "253", 1);
  StatusOr<Inventory> inventory = (*source)->Discover();
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  ASSERT_EQ(inventory->cards.size(), 2u);
  EXPECT_FALSE(inventory->cards[0].healthy);
  EXPECT_FALSE(inventory->cards[1].healthy);
}

TEST_F(EfmlCardSourceTest, NoDevicesIsNotFound) {
  setenv("FAKE_EFML_CARDS", "", 1);
  StatusOr<std::unique_ptr<EfmlCardSource>> source =
      EfmlCardSource::Create(FakeLibrary("libefml.so"), root_.path());
  ASSERT_TRUE(source.ok()) << source.status();
  StatusOr<Inventory> inventory = (*source)->Discover();
  ASSERT_FALSE(inventory.ok());
  EXPECT_EQ(inventory.status().code(), StatusCode::kNotFound);
}

TEST_F(EfmlCardSourceTest, ZeroMemoryFailsNormalisation) {
  setenv("FAKE_EFML_CARDS", "GCU-A,0,1,0,0000:01:00.0", 1);
  StatusOr<std::unique_ptr<EfmlCardSource>> source =
      EfmlCardSource::Create(FakeLibrary("libefml.so"), root_.path());
  ASSERT_TRUE(source.ok()) << source.status();
  StatusOr<Inventory> inventory = (*source)->Discover();
  ASSERT_FALSE(inventory.ok());
  EXPECT_THAT(inventory.status().message(),
              HasSubstr("card 0: memory must be positive"));
}

TEST(EfmlReturnCodeNameTest, NamesKnownAndUnknownCodes) {
  EXPECT_EQ(EfmlReturnCodeName(0), "EFML_SUCCESS (0)");
  EXPECT_EQ(EfmlReturnCodeName(6), "EFML_ERROR_DRIVER_NOT_LOADED (6)");
  EXPECT_EQ(EfmlReturnCodeName(11), "EFML_ERROR_DRIVER_NOT_COMPATIBLE (11)");
  EXPECT_EQ(EfmlReturnCodeName(253), "EFML_ERROR_TIMEOUT (253)");
  EXPECT_EQ(EfmlReturnCodeName(42), "EFML_UNKNOWN (42)");
}

}  // namespace
}  // namespace gcushare::efml
