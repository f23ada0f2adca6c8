#include "dra-driver/claim_preparer.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "base/testing/fake_clock.h"
#include "dra-driver/claim_cdi.h"
#include "kube/resource.h"
#include "kube/testing/fake_kube_client.h"
#include "metrics/registry.h"
#include "testing/scratch_dir.h"

namespace gcushare::dra {
namespace {

using nlohmann::json;

constexpr uint64_t kGiMilli = (uint64_t{1} << 30) * 1000;

json Result(uint32_t card, std::optional<std::string> share,
            std::optional<std::string> memory, std::string request = "gcu",
            std::string pool = "node-1") {
  json result = {{"request", request},
                 {"driver", "gcu.enflame.com"},
                 {"pool", pool},
                 {"device", "gcu-" + std::to_string(card)}};
  if (share) result["shareID"] = *share;
  if (memory) result["consumedCapacity"] = {{"memory", *memory}};
  return result;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> ListDir(const std::string& path) {
  std::vector<std::string> names;
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return names;
  while (dirent* entry = ::readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

class ClaimPreparerTest : public ::testing::Test {
 protected:
  ClaimPreparerTest() {
    scratch_.WriteFile("boot_id", "boot-1\n");
    scratch_.MakeDir("plugin");
    for (uint32_t i = 0; i < 2; ++i) {
      efml::Card card;
      card.index = i;
      card.uuid = "GCU-" + std::to_string(i);
      card.memory_mib = 16384;
      card.device.path = efml::DefaultDevicePath(i);
      inventory_.cards.push_back(card);
    }
  }

  ClaimPreparerOptions Options(metrics::Registry* registry = nullptr) {
    ClaimPreparerOptions options;
    options.node_name = "node-1";
    options.cdi_dir = cdi_dir();
    options.checkpoint_path = checkpoint_path();
    options.boot_id_path = scratch_.Path("boot_id");
    options.inventory = inventory_;
    options.kube = &kube_;
    options.clock = &clock_;
    options.metrics = registry;
    return options;
  }

  // A new preparer, restored.
  std::unique_ptr<ClaimPreparer> Start(metrics::Registry* registry = nullptr) {
    auto preparer = std::make_unique<ClaimPreparer>(Options(registry));
    StatusOr<RestoreReport> report = preparer->Restore();
    EXPECT_TRUE(report.ok()) << report.status();
    if (report.ok()) last_report_ = *report;
    return preparer;
  }

  // Creates an allocated claim; returns its ref (uid from the server).
  ClaimRef Seed(const std::string& name, json results) {
    json claim = {
        {"apiVersion", "resource.k8s.io/v1"},
        {"kind", "ResourceClaim"},
        {"metadata", {{"name", name}, {"namespace", "demo"}}},
        {"spec", json::object()},
        {"status",
         {{"allocation", {{"devices", {{"results", std::move(results)}}}}},
          {"reservedFor",
           {{{"resource", "pods"}, {"name", "p-" + name}, {"uid", "pu"}}}}}}};
    StatusOr<json> created =
        kube_.Seed(kube::Resource::ResourceClaims(), claim);
    EXPECT_TRUE(created.ok()) << created.status();
    return {"demo", (*created)["metadata"]["uid"].get<std::string>(), name};
  }

  void DeleteClaim(const ClaimRef& ref) {
    ASSERT_TRUE(
        kube_.Delete(kube::Resource::ResourceClaims(), ref.ns, ref.name, {})
            .ok());
  }

  std::string cdi_dir() const { return scratch_.Path("cdi"); }
  std::string checkpoint_path() const {
    return scratch_.Path("plugin/checkpoint.json");
  }
  std::string SpecPath(const ClaimRef& ref) const {
    return ClaimSpecPath(cdi_dir(), ref.uid);
  }

  testing::ScratchDir scratch_;
  efml::Inventory inventory_;
  kube::FakeKubeClient kube_;
  base::FakeClock clock_;
  RestoreReport last_report_;
};

TEST_F(ClaimPreparerTest, VendorScenarioSharesCardsAndRefusesOverCommit) {
  metrics::Registry registry;
  auto preparer = Start(&registry);
  ClaimRef a = Seed("a", {Result(0, "s-a", "4Gi")});
  ClaimRef b = Seed("b", {Result(1, "s-b", "8Gi")});
  ClaimRef c = Seed("c", {Result(0, "s-c", "12Gi")});
  auto out = preparer->Prepare({a, b, c});
  ASSERT_EQ(out.size(), 3u);
  for (const ClaimRef& ref : {a, b, c}) {
    EXPECT_EQ(out[ref.uid].error, "") << ref.name;
    ASSERT_EQ(out[ref.uid].devices.size(), 1u);
    EXPECT_TRUE(Exists(SpecPath(ref))) << ref.name;
  }
  EXPECT_EQ(out[a.uid].devices[0],
            (PreparedDevice{{"gcu"},
                            "node-1",
                            "gcu-0",
                            {"k8s.gcu.enflame.com/gcu=" + a.uid + "-gcu-0-s-a"},
                            "s-a"}));
  json spec = json::parse(ReadAll(SpecPath(c)));
  EXPECT_EQ(spec["kind"], "k8s.gcu.enflame.com/gcu");
  EXPECT_EQ(spec["devices"][0]["containerEdits"]["env"],
            json({"ENFLAME_VISIBLE_DEVICES=0", "GCUSHARE_MEMORY_LIMIT_MB=12288",
                  "GCUSHARE_MEMORY_TOTAL_MB=16384", "GCUSHARE_MEMORY_UNIT=1"}));

  // An allocator bug: 8 GiB more on card 0 (4 + 12 already there).
  ClaimRef d = Seed("d", {Result(0, "s-d", "8Gi")});
  auto refused = preparer->Prepare({d});
  EXPECT_NE(refused[d.uid].error.find("card 0 over-committed"),
            std::string::npos)
      << refused[d.uid].error;
  EXPECT_NE(refused[d.uid].error.find("claim demo/d"), std::string::npos);
  EXPECT_TRUE(refused[d.uid].devices.empty());
  EXPECT_FALSE(Exists(SpecPath(d)));
  EXPECT_EQ(preparer->Snapshot().claims.count(d.uid), 0u);
  auto usage = preparer->Usage();
  EXPECT_EQ(usage[0].held_millibytes, 16 * kGiMilli);
  EXPECT_EQ(usage[1].held_millibytes, 8 * kGiMilli);

  const std::string metrics = registry.Render();
  EXPECT_NE(metrics.find("gcushare_dra_driver_prepares_total{result=\"ok\"} 3"),
            std::string::npos)
      << metrics;
  EXPECT_NE(
      metrics.find("gcushare_dra_driver_prepares_total{result=\"error\"} 1"),
      std::string::npos);
  EXPECT_NE(metrics.find("gcushare_dra_driver_prepared_claims 3"),
            std::string::npos);
  EXPECT_NE(metrics.find("gcushare_dra_driver_card_held_bytes{card=\"0\"} "
                         "17179869184"),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("gcushare_dra_driver_prepare_seconds_count 4"),
            std::string::npos);
}

TEST_F(ClaimPreparerTest, PrepareIsIdempotentAndDoesNotRewrite) {
  auto preparer = Start();
  ClaimRef a = Seed("a", {Result(0, {}, {})});
  auto first = preparer->Prepare({a});
  ASSERT_EQ(first[a.uid].error, "");
  struct stat before;
  ASSERT_EQ(::stat(SpecPath(a).c_str(), &before), 0);
  const std::string checkpoint = ReadAll(checkpoint_path());
  // The claim is gone from the API server: the answer comes from the
  // checkpoint, the spec file is the same inode.
  DeleteClaim(a);
  auto second = preparer->Prepare({a, a});
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[a.uid].error, "");
  EXPECT_EQ(second[a.uid].devices, first[a.uid].devices);
  struct stat after;
  ASSERT_EQ(::stat(SpecPath(a).c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(ReadAll(checkpoint_path()), checkpoint);
  EXPECT_TRUE(preparer->Usage()[0].whole);
}

TEST_F(ClaimPreparerTest, RestartRestoresAndUnprepares) {
  ClaimRef a = Seed("a", {Result(0, "s1", "4Gi"), Result(1, "s2", "4Gi")});
  ClaimRef b = Seed("b", {Result(0, "s3", "8Gi")});
  {
    auto preparer = Start();
    auto out = preparer->Prepare({a, b});
    ASSERT_EQ(out[a.uid].error, "");
    ASSERT_EQ(out[a.uid].devices.size(), 2u);
    ASSERT_EQ(out[b.uid].error, "");
  }
  auto preparer = Start();
  EXPECT_EQ(last_report_.claims, 2u);
  EXPECT_FALSE(last_report_.rebooted);
  EXPECT_TRUE(last_report_.conflicts.empty());
  EXPECT_EQ(preparer->Usage()[0].held_millibytes, 12 * kGiMilli);
  // The ledger was restored: 8 GiB more on card 0 is refused.
  ClaimRef c = Seed("c", {Result(0, "s4", "8Gi")});
  EXPECT_NE(preparer->Prepare({c})[c.uid].error, "");

  auto done = preparer->Unprepare({a});
  EXPECT_EQ(done[a.uid], "");
  EXPECT_FALSE(Exists(SpecPath(a)));
  EXPECT_TRUE(Exists(SpecPath(b)));
  EXPECT_EQ(preparer->Usage()[0].held_millibytes, 8 * kGiMilli);
  EXPECT_EQ(preparer->Usage()[1].held_millibytes, 0u);
  // Twice, and an unknown claim: success.
  ClaimRef unknown{"demo", "no-such-uid", "x"};
  auto again = preparer->Unprepare({a, unknown});
  EXPECT_EQ(again[a.uid], "");
  EXPECT_EQ(again[unknown.uid], "");
  // And the checkpoint on disk no longer has it.
  auto third = Start();
  EXPECT_EQ(last_report_.claims, 1u);
  EXPECT_EQ(third->Snapshot().claims.count(a.uid), 0u);
}

TEST_F(ClaimPreparerTest, UnprepareAfterTheClaimWasDeleted) {
  auto preparer = Start();
  ClaimRef a = Seed("a", {Result(1, "s1", "2Gi")});
  ASSERT_EQ(preparer->Prepare({a})[a.uid].error, "");
  DeleteClaim(a);
  const size_t gets_before = kube_.actions().size();
  EXPECT_EQ(preparer->Unprepare({a})[a.uid], "");
  EXPECT_EQ(kube_.actions().size(), gets_before);  // Never asked the server.
  EXPECT_FALSE(Exists(SpecPath(a)));
  EXPECT_TRUE(preparer->Snapshot().claims.empty());
}

TEST_F(ClaimPreparerTest, CorruptCheckpointIsKeptAsideAndTheDriverStarts) {
  scratch_.WriteFile("plugin/checkpoint.json", "{\"version\": 1, garbage");
  // A spec left by a claim the lost checkpoint knew.
  scratch_.WriteFile("cdi/k8s.gcu.enflame.com-gcu_orphan.json", "{}");
  auto preparer = Start();
  EXPECT_EQ(last_report_.claims, 0u);
  EXPECT_EQ(
      last_report_.corrupt_kept_as.rfind(checkpoint_path() + ".corrupt-", 0),
      0u)
      << last_report_.corrupt_kept_as;
  EXPECT_EQ(ReadAll(last_report_.corrupt_kept_as), "{\"version\": 1, garbage");
  EXPECT_NE(last_report_.corrupt_reason.find(checkpoint_path()),
            std::string::npos);
  // A fresh checkpoint was written, and the driver works.
  EXPECT_TRUE(Exists(checkpoint_path()));
  ClaimRef a = Seed("a", {Result(0, {}, {})});
  EXPECT_EQ(preparer->Prepare({a})[a.uid].error, "");
  // Unprepare of the claim the lost checkpoint knew removes its spec.
  ClaimRef orphan{"demo", "orphan", "old"};
  EXPECT_EQ(preparer->Unprepare({orphan})[orphan.uid], "");
  EXPECT_FALSE(Exists(SpecPath(orphan)));
}

TEST_F(ClaimPreparerTest, RebootRewritesSpecsFromTheCheckpoint) {
  ClaimRef a = Seed("a", {Result(0, "s1", "4Gi")});
  std::string spec_before;
  {
    auto preparer = Start();
    ASSERT_EQ(preparer->Prepare({a})[a.uid].error, "");
    spec_before = ReadAll(SpecPath(a));
  }
  // Reboot: a new boot id, /var/run/cdi emptied, the claim deleted (so the
  // spec can only come from the checkpoint).
  scratch_.WriteFile("boot_id", "boot-2\n");
  scratch_.Remove("cdi");
  DeleteClaim(a);
  auto preparer = Start();
  EXPECT_TRUE(last_report_.rebooted);
  EXPECT_EQ(last_report_.previous_boot_id, "boot-1");
  EXPECT_EQ(last_report_.claims, 1u);
  EXPECT_EQ(json::parse(ReadAll(checkpoint_path()))["bootId"], "boot-2");
  EXPECT_EQ(preparer->Usage()[0].held_millibytes, 4 * kGiMilli);
  auto out = preparer->Prepare({a});
  ASSERT_EQ(out[a.uid].error, "");
  EXPECT_EQ(out[a.uid].devices[0].share_id, "s1");
  EXPECT_EQ(ReadAll(SpecPath(a)), spec_before);
  EXPECT_EQ(preparer->Unprepare({a})[a.uid], "");
}

TEST_F(ClaimPreparerTest, FailuresChangeNothing) {
  auto preparer = Start();
  ClaimRef missing{"demo", "uid-x", "missing"};
  ClaimRef wrong_uid = Seed("w", {Result(0, {}, {})});
  wrong_uid.uid = "another-uid";
  ClaimRef other_pool = Seed("o", {Result(0, {}, {}, "gcu", "node-2")});
  ClaimRef bad_card = Seed("bc", {Result(7, {}, {})});
  ClaimRef bad_uid{"demo", "../../etc/x", "e"};
  auto out =
      preparer->Prepare({missing, wrong_uid, other_pool, bad_card, bad_uid});
  EXPECT_NE(out[missing.uid].error.find("not found"), std::string::npos)
      << out[missing.uid].error;
  EXPECT_NE(out[wrong_uid.uid].error.find("re-created"), std::string::npos)
      << out[wrong_uid.uid].error;
  EXPECT_NE(out[other_pool.uid].error.find("node-2"), std::string::npos);
  EXPECT_NE(out[bad_card.uid].error.find("no card 7"), std::string::npos)
      << out[bad_card.uid].error;
  EXPECT_NE(out[bad_uid.uid].error.find("claim uid"), std::string::npos);
  EXPECT_NE(preparer->Unprepare({bad_uid})[bad_uid.uid], "");
  EXPECT_TRUE(preparer->Snapshot().claims.empty());
  EXPECT_TRUE(ListDir(cdi_dir()).empty());
  EXPECT_EQ(preparer->Usage()[0].claims.size(), 0u);

  // The API server is down: an error for that claim only.
  ClaimRef a = Seed("a", {Result(0, {}, {})});
  ClaimRef b = Seed("b", {Result(1, {}, {})});
  kube_.FailNext("get", UnavailableError("connection refused"));
  auto partial = preparer->Prepare({a, b});
  EXPECT_NE(partial[a.uid].error.find("connection refused"), std::string::npos);
  EXPECT_EQ(partial[b.uid].error, "");
}

TEST_F(ClaimPreparerTest, CdiWriteFailureRollsBack) {
  auto preparer = Start();
  scratch_.WriteFile("cdi", "not a directory");
  ClaimRef a = Seed("a", {Result(0, "s1", "4Gi")});
  auto out = preparer->Prepare({a});
  EXPECT_NE(out[a.uid].error.find("cannot write the CDI spec"),
            std::string::npos)
      << out[a.uid].error;
  EXPECT_TRUE(preparer->Snapshot().claims.empty());
  EXPECT_EQ(preparer->Usage()[0].held_millibytes, 0u);
  StatusOr<LoadedCheckpoint> saved =
      LoadCheckpoint(checkpoint_path(), clock_.Now());
  ASSERT_TRUE(saved.ok());
  EXPECT_TRUE(saved->checkpoint.claims.empty());
  // Once the directory is back, the same claim prepares.
  scratch_.Remove("cdi");
  EXPECT_EQ(preparer->Prepare({a})[a.uid].error, "");
}

TEST_F(ClaimPreparerTest, PrepareStartedRecordIsRedone) {
  ClaimRef a = Seed("a", {Result(0, "s1", "4Gi")});
  // A crash between PrepareStarted and the CDI spec.
  Checkpoint crashed;
  crashed.boot_id = "boot-1";
  CheckpointClaim record;
  record.ns = "demo";
  record.name = "a";
  record.state = ClaimState::kPrepareStarted;
  record.devices.push_back(
      {{"gcu", "node-1", "gcu-0", 0, "s1", 4 * kGiMilli},
       {"k8s.gcu.enflame.com/gcu=" + a.uid + "-gcu-0-s1"}});
  crashed.claims[a.uid] = record;
  ASSERT_TRUE(SaveCheckpoint(crashed, checkpoint_path()).ok());
  auto preparer = Start();
  EXPECT_EQ(preparer->Usage()[0].held_millibytes, 4 * kGiMilli);
  auto out = preparer->Prepare({a});
  ASSERT_EQ(out[a.uid].error, "");
  EXPECT_TRUE(Exists(SpecPath(a)));
  EXPECT_EQ(preparer->Snapshot().claims[a.uid].state,
            ClaimState::kPrepareCompleted);
  EXPECT_EQ(preparer->Usage()[0].held_millibytes, 4 * kGiMilli);
}

TEST_F(ClaimPreparerTest, SubrequestResultsAnswerTheirRequest) {
  auto preparer = Start();
  ClaimRef a = Seed("a", {Result(0, "s1", "4Gi", "gcu/small"),
                          Result(1, "s2", "4Gi", "gcu/small")});
  auto out = preparer->Prepare({a});
  ASSERT_EQ(out[a.uid].error, "");
  ASSERT_EQ(out[a.uid].devices.size(), 2u);
  EXPECT_EQ(out[a.uid].devices[0].request_names,
            std::vector<std::string>{"gcu"});
  EXPECT_EQ(out[a.uid].devices[1].request_names,
            std::vector<std::string>{"gcu"});
  json spec = json::parse(ReadAll(SpecPath(a)));
  EXPECT_EQ(spec["devices"][0]["containerEdits"]["env"][0],
            "ENFLAME_VISIBLE_DEVICES=0,1");
  EXPECT_EQ(spec["devices"][0]["containerEdits"]["env"][1],
            "GCUSHARE_MEMORY_LIMIT_MB=8192");
  EXPECT_FALSE(spec["devices"][1]["containerEdits"].contains("env"));
}

TEST_F(ClaimPreparerTest, RecordsTheLedgerRefusesAreKeptForUnprepare) {
  // The checkpoint holds a claim on card 7, which this node no longer has.
  Checkpoint old;
  old.boot_id = "boot-1";
  CheckpointClaim record;
  record.ns = "demo";
  record.name = "gone";
  record.state = ClaimState::kPrepareCompleted;
  record.devices.push_back(
      {{"gcu", "node-1", "gcu-7", 7, {}, {}}, {"k8s.gcu.enflame.com/gcu=u7"}});
  old.claims["u7"] = record;
  ASSERT_TRUE(SaveCheckpoint(old, checkpoint_path()).ok());
  auto preparer = Start();
  ASSERT_EQ(last_report_.conflicts.size(), 1u);
  EXPECT_NE(last_report_.conflicts[0].find("no card 7"), std::string::npos)
      << last_report_.conflicts[0];
  EXPECT_EQ(preparer->Snapshot().claims.count("u7"), 1u);
  ClaimRef gone{"demo", "u7", "gone"};
  EXPECT_EQ(preparer->Unprepare({gone})["u7"], "");
  EXPECT_TRUE(preparer->Snapshot().claims.empty());
}

TEST_F(ClaimPreparerTest, UnprepareFailureKeepsTheRecord) {
  auto preparer = Start();
  ClaimRef a = Seed("a", {Result(0, {}, {})});
  ASSERT_EQ(preparer->Prepare({a})[a.uid].error, "");
  // Something replaced the spec file with a directory: it cannot be
  // removed, so the claim stays prepared and the kubelet retries.
  scratch_.Remove("cdi/" + ClaimSpecFileName(a.uid));
  scratch_.MakeDir("cdi/" + ClaimSpecFileName(a.uid) + "/x");
  EXPECT_NE(preparer->Unprepare({a})[a.uid], "");
  EXPECT_EQ(preparer->Snapshot().claims.count(a.uid), 1u);
  EXPECT_TRUE(preparer->Usage()[0].whole);
  scratch_.Remove("cdi/" + ClaimSpecFileName(a.uid));
  EXPECT_EQ(preparer->Unprepare({a})[a.uid], "");
  EXPECT_TRUE(preparer->Snapshot().claims.empty());
  EXPECT_FALSE(preparer->Usage()[0].whole);
}

TEST_F(ClaimPreparerTest, NothingBeforeRestore) {
  ClaimPreparer preparer(Options());
  ClaimRef a = Seed("a", {Result(0, {}, {})});
  EXPECT_NE(preparer.Prepare({a})[a.uid].error.find("not restored"),
            std::string::npos);
  EXPECT_NE(preparer.Unprepare({a})[a.uid], "");
  scratch_.Remove("boot_id");
  EXPECT_FALSE(preparer.Restore().ok());
}

TEST_F(ClaimPreparerTest, ConcurrentPreparesNeverOverCommit) {
  auto preparer = Start();
  // 24 claims of 4 GiB, all allocated (wrongly) on card 0: exactly four fit.
  std::vector<ClaimRef> claims;
  claims.reserve(24);
  for (int i = 0; i < 24; ++i) {
    claims.push_back(Seed("c" + std::to_string(i),
                          {Result(0, "s" + std::to_string(i), "4Gi")}));
  }
  std::atomic<int> ok{0};
  std::atomic<int> refused{0};
  std::vector<std::thread> threads;
  threads.reserve(6);
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t; i < 24; i += 6) {
        auto out = preparer->Prepare({claims[i]});
        if (out[claims[i].uid].error.empty()) {
          ++ok;
        } else if (out[claims[i].uid].error.find("over-committed") !=
                   std::string::npos) {
          ++refused;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(ok.load(), 4);
  EXPECT_EQ(refused.load(), 20);
  EXPECT_EQ(preparer->Usage()[0].held_millibytes, 16 * kGiMilli);
  EXPECT_EQ(ListDir(cdi_dir()).size(), 4u);
  EXPECT_EQ(preparer->Snapshot().claims.size(), 4u);
  // Unprepare them all concurrently, with the refused ones mixed in.
  threads.clear();
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t; i < 24; i += 6) {
        EXPECT_EQ(preparer->Unprepare({claims[i]})[claims[i].uid], "");
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_TRUE(ListDir(cdi_dir()).empty());
  EXPECT_EQ(preparer->Usage()[0].held_millibytes, 0u);
}

}  // namespace
}  // namespace gcushare::dra
