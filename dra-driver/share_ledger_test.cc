#include "dra-driver/share_ledger.h"

#include <gtest/gtest.h>

#include "dra-driver/memory_quantity.h"

namespace gcushare::dra {
namespace {

constexpr uint64_t kGiMilli = (uint64_t{1} << 30) * 1000;

efml::Inventory Cards() {
  efml::Inventory inventory;
  for (uint32_t i = 0; i < 2; ++i) {
    efml::Card card;
    card.index = i;
    card.uuid = "GCU-" + std::to_string(i);
    card.memory_mib = 16384;
    card.device.path = efml::DefaultDevicePath(i);
    inventory.cards.push_back(card);
  }
  return inventory;
}

AllocatedResult Share(uint32_t card, std::string id, uint64_t gib) {
  return {"gcu", "n", "gcu-" + std::to_string(card), card, id, gib * kGiMilli};
}

AllocatedResult Whole(uint32_t card) {
  return {"gcu", "n", "gcu-" + std::to_string(card), card, {}, {}};
}

TEST(ShareLedgerTest, VendorScenarioFillsACard) {
  // 4, 8 and 12 GiB shares on 16 GiB cards: 4+12 on one card, 8 on the
  // other, and a further 8 fits only next to the first 8.
  ShareLedger ledger(Cards());
  ASSERT_TRUE(ledger.Admit("a", {Share(0, "s1", 4)}).ok());
  ASSERT_TRUE(ledger.Admit("b", {Share(1, "s2", 8)}).ok());
  ASSERT_TRUE(ledger.Admit("c", {Share(0, "s3", 12)}).ok());
  Status full = ledger.Admit("d", {Share(0, "s4", 8)});
  EXPECT_EQ(full.code(), StatusCode::kResourceExhausted) << full;
  EXPECT_NE(full.message().find("card 0 over-committed"), std::string::npos)
      << full;
  EXPECT_FALSE(ledger.Holds("d"));
  ASSERT_TRUE(ledger.Admit("d", {Share(1, "s4", 8)}).ok());
  auto usage = ledger.Usage();
  EXPECT_EQ(usage[0].held_millibytes, 16 * kGiMilli);
  EXPECT_EQ(usage[0].shares, 2u);
  EXPECT_EQ(usage[0].claims, (std::set<std::string>{"a", "c"}));
  EXPECT_EQ(usage[1].held_millibytes, 16 * kGiMilli);
}

TEST(ShareLedgerTest, AllOrNothing) {
  ShareLedger ledger(Cards());
  ASSERT_TRUE(ledger.Admit("a", {Share(1, "s1", 10)}).ok());
  // The first result fits, the second does not: nothing is taken.
  Status refused = ledger.Admit("b", {Share(0, "s2", 8), Share(1, "s3", 8)});
  EXPECT_FALSE(refused.ok());
  EXPECT_FALSE(ledger.Holds("b"));
  EXPECT_EQ(ledger.Usage()[0].held_millibytes, 0u);
  // Two results of one claim on one card count together.
  EXPECT_FALSE(ledger.Admit("c", {Share(0, "x", 10), Share(0, "y", 10)}).ok());
  EXPECT_TRUE(ledger.Admit("c", {Share(0, "x", 8), Share(0, "y", 8)}).ok());
}

TEST(ShareLedgerTest, WholeCardsAndSharesDoNotMix) {
  ShareLedger ledger(Cards());
  ASSERT_TRUE(ledger.Admit("whole", {Whole(0)}).ok());
  Status share = ledger.Admit("s", {Share(0, "s1", 1)});
  EXPECT_EQ(share.code(), StatusCode::kFailedPrecondition) << share;
  Status again = ledger.Admit("w2", {Whole(0)});
  EXPECT_EQ(again.code(), StatusCode::kFailedPrecondition) << again;
  ASSERT_TRUE(ledger.Admit("s", {Share(1, "s1", 1)}).ok());
  EXPECT_FALSE(ledger.Admit("w3", {Whole(1)}).ok());
  // A result consuming the whole card without a shareID is a whole card.
  AllocatedResult full = Whole(1);
  full.consumed_millibytes = 16 * kGiMilli;
  EXPECT_FALSE(IsShare(full, 16 * kGiMilli));
  full.consumed_millibytes = 15 * kGiMilli;
  EXPECT_TRUE(IsShare(full, 16 * kGiMilli));
}

TEST(ShareLedgerTest, CountsReferencesUntilTheLastClaimGoes) {
  ShareLedger ledger(Cards());
  ASSERT_TRUE(ledger.Admit("a", {Share(0, "s1", 8)}).ok());
  ASSERT_TRUE(ledger.Admit("b", {Share(0, "s2", 8)}).ok());
  ledger.Release("a");
  EXPECT_EQ(ledger.Usage()[0].claims, (std::set<std::string>{"b"}));
  EXPECT_FALSE(ledger.Admit("w", {Whole(0)}).ok());
  ledger.Release("b");
  ledger.Release("b");        // Twice: no effect.
  ledger.Release("unknown");  // Unknown: no effect.
  EXPECT_TRUE(ledger.Usage()[0].claims.empty());
  EXPECT_TRUE(ledger.Admit("w", {Whole(0)}).ok());
}

TEST(ShareLedgerTest, RefusesBadInput) {
  ShareLedger ledger(Cards());
  EXPECT_EQ(ledger.Admit("a", {Whole(7)}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ledger.Admit("a", {Share(0, "s", 1), Share(0, "s", 1)}).code(),
            StatusCode::kInvalidArgument);
  ASSERT_TRUE(ledger.Admit("a", {Share(0, "s", 1)}).ok());
  EXPECT_EQ(ledger.Admit("a", {Share(1, "t", 1)}).code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(ledger.Usage()[1].held_millibytes, 0u);
}

TEST(ShareLedgerTest, FractionalUnitsPackExactly) {
  // 160 shares of 0.1 GiB fill a 16 GiB card exactly; one more is refused.
  ShareLedger ledger(Cards());
  for (int i = 0; i < 160; ++i) {
    AllocatedResult r = Share(0, "s" + std::to_string(i), 0);
    r.consumed_millibytes = 107374182400;
    ASSERT_TRUE(ledger.Admit("c" + std::to_string(i), {r}).ok()) << i;
  }
  AllocatedResult r = Share(0, "last", 0);
  r.consumed_millibytes = 107374182400;
  EXPECT_FALSE(ledger.Admit("last", {r}).ok());
}

}  // namespace
}  // namespace gcushare::dra
