#include "efml/card_source_factory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "efml/card.h"
#include "efml/card_source.h"
#include "status/status.h"
#include "testing/scratch_dir.h"

namespace gcushare::efml {
namespace {

using ::gcushare::testing::ScratchDir;

using ::testing::HasSubstr;

std::string FakeLibrary() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  return std::string(srcdir != nullptr ? srcdir : ".") +
         "/gcushare/efml/libefml.so";
}

class CardSourceFactoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("FAKE_EFML_INIT_RC");
    unsetenv("FAKE_EFML_MEM_RC");
    unsetenv("FAKE_EFML_HEALTH_RC");
    setenv("FAKE_EFML_CARDS", "GCU-A,16384,1,0,0000:01:00.0", 1);
    options_.root = root_.path();
    options_.efml_library = root_.Path("no-such-libefml.so");
  }

  // One card in the sysfs tree for the scan backend.
  void AddScanCard() {
    root_.MakeDir("sys/bus/pci/devices/0000:01:00.0/enflame/gcu0");
    root_.WriteFile("dev/gcu0", "");
    options_.scan_memory_mib = 4096;
  }

  ScratchDir root_;
  CardSourceOptions options_;
};

TEST_F(CardSourceFactoryTest, FakeNeedsACardsFile) {
  options_.backend = "fake";
  StatusOr<std::unique_ptr<CardSource>> source = MakeCardSource(options_);
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(source.status().message(), HasSubstr("--fake-cards-file"));
}

TEST_F(CardSourceFactoryTest, FakeReadsTheCardsFile) {
  root_.WriteFile("cards.yaml",
                  "cards:\n- {index: 0, uuid: U0, memoryMiB: 512}\n");
  options_.backend = "fake";
  options_.fake_cards_file = root_.Path("cards.yaml");
  StatusOr<std::unique_ptr<CardSource>> source = MakeCardSource(options_);
  ASSERT_TRUE(source.ok()) << source.status();
  EXPECT_EQ((*source)->Name(), "fake");
  StatusOr<Inventory> inventory = (*source)->Discover();
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  EXPECT_EQ(inventory->cards.at(0).memory_mib, 512u);
}

TEST_F(CardSourceFactoryTest, ScanUsesRootAndDefaultMemory) {
  AddScanCard();
  options_.backend = "scan";
  StatusOr<std::unique_ptr<CardSource>> source = MakeCardSource(options_);
  ASSERT_TRUE(source.ok()) << source.status();
  EXPECT_EQ((*source)->Name(), "scan");
  StatusOr<Inventory> inventory = (*source)->Discover();
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  EXPECT_EQ(inventory->cards.at(0).memory_mib, 4096u);
}

TEST_F(CardSourceFactoryTest, EfmlLoadsTheConfiguredLibrary) {
  options_.backend = "efml";
  options_.efml_library = FakeLibrary();
  StatusOr<std::unique_ptr<CardSource>> source = MakeCardSource(options_);
  ASSERT_TRUE(source.ok()) << source.status();
  EXPECT_EQ((*source)->Name(), "efml");
}

TEST_F(CardSourceFactoryTest, EfmlWithoutLibraryFails) {
  AddScanCard();  // Must not be used: the backend was asked for explicitly.
  options_.backend = "efml";
  StatusOr<std::unique_ptr<CardSource>> source = MakeCardSource(options_);
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().code(), StatusCode::kUnavailable);
  EXPECT_THAT(source.status().message(), HasSubstr("cannot load"));
}

TEST_F(CardSourceFactoryTest, AutoPrefersEfml) {
  AddScanCard();
  options_.efml_library = FakeLibrary();
  StatusOr<std::unique_ptr<CardSource>> source = MakeCardSource(options_);
  ASSERT_TRUE(source.ok()) << source.status();
  EXPECT_EQ((*source)->Name(), "efml");
}

TEST_F(CardSourceFactoryTest, AutoFallsBackToScanWhenLibraryIsMissing) {
  AddScanCard();
  ASSERT_EQ(options_.backend, "auto");
  StatusOr<std::unique_ptr<CardSource>> source = MakeCardSource(options_);
  ASSERT_TRUE(source.ok()) << source.status();
  EXPECT_EQ((*source)->Name(), "scan");
}

TEST_F(CardSourceFactoryTest, AutoFallsBackToScanWhenLibraryHasNoDevices) {
  AddScanCard();
  setenv("FAKE_EFML_CARDS", "", 1);
  options_.efml_library = FakeLibrary();
  StatusOr<std::unique_ptr<CardSource>> source = MakeCardSource(options_);
  ASSERT_TRUE(source.ok()) << source.status();
  EXPECT_EQ((*source)->Name(), "scan");
}

TEST_F(CardSourceFactoryTest, AutoWithNothingGivesBothReasons) {
  StatusOr<std::unique_ptr<CardSource>> source = MakeCardSource(options_);
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().code(), StatusCode::kUnavailable);
  EXPECT_THAT(source.status().message(),
              HasSubstr("efml: cannot load " + options_.efml_library));
  EXPECT_THAT(source.status().message(),
              HasSubstr("scan: no Enflame GCU found under " + root_.path() +
                        "/sys/bus/pci/devices"));
}

TEST_F(CardSourceFactoryTest, AutoReportsScanMemoryProblem) {
  AddScanCard();
  options_.scan_memory_mib = 0;
  StatusOr<std::unique_ptr<CardSource>> source = MakeCardSource(options_);
  ASSERT_FALSE(source.ok());
  EXPECT_THAT(source.status().message(), HasSubstr("--scan-memory-mib"));
}

TEST_F(CardSourceFactoryTest, UnknownBackendListsValidValues) {
  options_.backend = "nvml";
  StatusOr<std::unique_ptr<CardSource>> source = MakeCardSource(options_);
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(source.status().message(),
            "unknown card backend \"nvml\" (valid: auto, efml, scan, fake)");
}

}  // namespace
}  // namespace gcushare::efml
