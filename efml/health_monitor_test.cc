#include "efml/health_monitor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "efml/card.h"
#include "efml/card_source.h"
#include "efml/fake_card_source.h"
#include "status/status.h"
#include "testing/scratch_dir.h"

namespace gcushare::efml {
namespace {

using ::gcushare::testing::ScratchDir;

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Returns whatever the test last put in `next`.
class ScriptedSource : public CardSource {
 public:
  std::string Name() const override { return "scripted"; }
  StatusOr<Inventory> Discover() override {
    ++calls;
    return next;
  }

  StatusOr<Inventory> next = NotFoundError("nothing scripted");
  int calls = 0;
};

Card MakeCard(uint32_t index, bool healthy) {
  Card card;
  card.index = index;
  card.uuid = "GCU-" + std::to_string(index);
  card.memory_mib = 1024;
  card.device.path = DefaultDevicePath(index);
  card.healthy = healthy;
  return card;
}

Inventory MakeInventory(std::vector<Card> cards) {
  Inventory inventory;
  inventory.cards = std::move(cards);
  return inventory;
}

// Records every notification.
struct Recorder {
  struct Call {
    Inventory inventory;
    std::vector<uint32_t> changed;
  };
  HealthMonitor::Callback callback() {
    return [this](const Inventory& inventory,
                  const std::vector<uint32_t>& changed) {
      calls.push_back({inventory, changed});
    };
  }
  std::vector<Call> calls;
};

std::string CardsYaml(bool card1_healthy) {
  return std::string(
             "cards:\n"
             "- {index: 0, uuid: GCU-0, memoryMiB: 1024}\n"
             "- {index: 1, uuid: GCU-1, memoryMiB: 1024, healthy: ") +
         (card1_healthy ? "true" : "false") + "}\n";
}

class HealthMonitorFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.WriteFile("cards.yaml", CardsYaml(true));
    source_ = std::make_unique<FakeCardSource>(dir_.Path("cards.yaml"));
    StatusOr<Inventory> initial = source_->Discover();
    ASSERT_TRUE(initial.ok()) << initial.status();
    initial_ = *initial;
  }

  ScratchDir dir_;
  std::unique_ptr<FakeCardSource> source_;
  Inventory initial_;
};

TEST_F(HealthMonitorFileTest, FlippedHealthNotifiesWithChangedIndex) {
  HealthMonitor monitor(*source_, initial_);
  Recorder recorder;
  monitor.Subscribe(recorder.callback());

  dir_.WriteFile("cards.yaml", CardsYaml(false));
  monitor.PollOnce();
  ASSERT_EQ(recorder.calls.size(), 1u);
  EXPECT_THAT(recorder.calls[0].changed, ElementsAre(1u));
  EXPECT_TRUE(recorder.calls[0].inventory.cards.at(0).healthy);
  EXPECT_FALSE(recorder.calls[0].inventory.cards.at(1).healthy);
  EXPECT_FALSE(monitor.Current().cards.at(1).healthy);

  dir_.WriteFile("cards.yaml", CardsYaml(true));
  monitor.PollOnce();
  ASSERT_EQ(recorder.calls.size(), 2u);
  EXPECT_THAT(recorder.calls[1].changed, ElementsAre(1u));
  EXPECT_TRUE(recorder.calls[1].inventory.cards.at(1).healthy);
}

TEST_F(HealthMonitorFileTest, NoChangeNoCallback) {
  HealthMonitor monitor(*source_, initial_);
  Recorder recorder;
  monitor.Subscribe(recorder.callback());
  monitor.PollOnce();
  monitor.PollOnce();
  EXPECT_THAT(recorder.calls, IsEmpty());
  EXPECT_EQ(monitor.Current(), initial_);
}

TEST_F(HealthMonitorFileTest, BrokenFileKeepsLastStateWithoutCallback) {
  HealthMonitor monitor(*source_, initial_);
  Recorder recorder;
  monitor.Subscribe(recorder.callback());

  dir_.WriteFile("cards.yaml", "cards:\n- index: [\n");
  monitor.PollOnce();
  EXPECT_THAT(recorder.calls, IsEmpty());
  EXPECT_EQ(monitor.Current(), initial_);

  dir_.Remove("cards.yaml");
  monitor.PollOnce();
  EXPECT_THAT(recorder.calls, IsEmpty());
  EXPECT_EQ(monitor.Current(), initial_);

  // Once the file is fixed, changes flow again.
  dir_.WriteFile("cards.yaml", CardsYaml(false));
  monitor.PollOnce();
  ASSERT_EQ(recorder.calls.size(), 1u);
  EXPECT_THAT(recorder.calls[0].changed, ElementsAre(1u));
}

TEST_F(HealthMonitorFileTest, UnsubscribedCallbackIsNotCalled) {
  HealthMonitor monitor(*source_, initial_);
  Recorder kept, dropped;
  monitor.Subscribe(kept.callback());
  HealthMonitor::SubscriptionId id = monitor.Subscribe(dropped.callback());
  monitor.Unsubscribe(id);
  monitor.Unsubscribe(id + 100);  // Unknown ids are ignored.

  dir_.WriteFile("cards.yaml", CardsYaml(false));
  monitor.PollOnce();
  EXPECT_EQ(kept.calls.size(), 1u);
  EXPECT_THAT(dropped.calls, IsEmpty());
}

TEST(HealthMonitorTest, VanishedCardIsKeptUnhealthyAndReportedOnce) {
  ScriptedSource source;
  HealthMonitor monitor(source,
                        MakeInventory({MakeCard(0, true), MakeCard(1, true)}));
  Recorder recorder;
  monitor.Subscribe(recorder.callback());

  source.next = MakeInventory({MakeCard(0, true)});
  monitor.PollOnce();
  ASSERT_EQ(recorder.calls.size(), 1u);
  EXPECT_THAT(recorder.calls[0].changed, ElementsAre(1u));
  const Inventory& inventory = recorder.calls[0].inventory;
  ASSERT_EQ(inventory.cards.size(), 2u);
  EXPECT_EQ(inventory.cards[1].index, 1u);
  EXPECT_EQ(inventory.cards[1].uuid, "GCU-1");
  EXPECT_FALSE(inventory.cards[1].healthy);

  monitor.PollOnce();  // Still gone: nothing new to say.
  EXPECT_EQ(recorder.calls.size(), 1u);

  source.next = MakeInventory({MakeCard(0, true), MakeCard(1, true)});
  monitor.PollOnce();
  ASSERT_EQ(recorder.calls.size(), 2u);
  EXPECT_THAT(recorder.calls[1].changed, ElementsAre(1u));
  EXPECT_TRUE(recorder.calls[1].inventory.cards.at(1).healthy);
}

TEST(HealthMonitorTest, AppearedCardIsReported) {
  ScriptedSource source;
  HealthMonitor monitor(source, MakeInventory({MakeCard(0, true)}));
  Recorder recorder;
  monitor.Subscribe(recorder.callback());

  source.next = MakeInventory({MakeCard(0, true), MakeCard(2, true)});
  monitor.PollOnce();
  ASSERT_EQ(recorder.calls.size(), 1u);
  EXPECT_THAT(recorder.calls[0].changed, ElementsAre(2u));
  EXPECT_EQ(monitor.Current().cards.size(), 2u);
}

TEST(HealthMonitorTest, SeveralChangesArriveInOneNotification) {
  ScriptedSource source;
  HealthMonitor monitor(
      source, MakeInventory(
                  {MakeCard(0, true), MakeCard(1, true), MakeCard(2, false)}));
  Recorder recorder;
  monitor.Subscribe(recorder.callback());

  source.next =
      MakeInventory({MakeCard(0, false), MakeCard(1, true), MakeCard(2, true)});
  monitor.PollOnce();
  ASSERT_EQ(recorder.calls.size(), 1u);
  EXPECT_THAT(recorder.calls[0].changed, ElementsAre(0u, 2u));
}

TEST(HealthMonitorTest, LogsEachDistinctDiscoveryErrorOnce) {
  auto sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(64);
  auto previous = spdlog::default_logger();
  spdlog::set_default_logger(std::make_shared<spdlog::logger>("test", sink));
  auto count_warnings = [&sink] {
    int n = 0;
    for (const auto& message : sink->last_raw()) {
      if (message.level == spdlog::level::warn) ++n;
    }
    return n;
  };

  ScriptedSource source;
  Inventory initial = MakeInventory({MakeCard(0, true)});
  HealthMonitor monitor(source, initial);
  source.next = UnavailableError("driver gone");
  monitor.PollOnce();
  monitor.PollOnce();
  monitor.PollOnce();
  int after_same_error = count_warnings();
  source.next = UnavailableError("driver still gone");
  monitor.PollOnce();
  int after_new_error = count_warnings();
  source.next = initial;
  monitor.PollOnce();
  source.next = UnavailableError("driver gone");
  monitor.PollOnce();
  int after_recovery = count_warnings();

  spdlog::set_default_logger(previous);
  EXPECT_EQ(source.calls, 6);
  EXPECT_EQ(after_same_error, 1);
  EXPECT_EQ(after_new_error, 2);
  EXPECT_EQ(after_recovery, 3);  // A recovery resets the memory.
  EXPECT_EQ(monitor.Current(), initial);
}

TEST(HealthMonitorTest, CurrentIsTheInitialInventoryBeforeAnyPoll) {
  ScriptedSource source;
  Inventory initial = MakeInventory({MakeCard(3, false)});
  HealthMonitor monitor(source, initial);
  EXPECT_EQ(monitor.Current(), initial);
  EXPECT_EQ(source.calls, 0);
}

TEST(HealthMonitorTest, StopReturnsWithoutWaitingForTheInterval) {
  ScriptedSource source;
  HealthMonitor monitor(source, MakeInventory({MakeCard(0, true)}));
  // With a one-hour interval, Stop() only returns if it wakes the thread.
  monitor.Start(std::chrono::hours(1));
  monitor.Start(std::chrono::hours(1));  // Already running: no-op.
  monitor.Stop();
  monitor.Stop();  // Not running: no-op.
  EXPECT_EQ(source.calls, 0);
  // Restart, then let the destructor stop it.
  monitor.Start(std::chrono::hours(1));
}

}  // namespace
}  // namespace gcushare::efml
