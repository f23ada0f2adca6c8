#include "dra-driver/checkpoint.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "testing/scratch_dir.h"

namespace gcushare::dra {
namespace {

using nlohmann::json;

Checkpoint Sample() {
  Checkpoint checkpoint;
  checkpoint.boot_id = "boot-1";
  CheckpointClaim shared;
  shared.ns = "demo";
  shared.name = "c1";
  shared.state = ClaimState::kPrepareCompleted;
  shared.cdi_spec_file = "/var/run/cdi/k8s.gcu.enflame.com-gcu_u1.json";
  shared.devices.push_back({{"gcu", "node-1", "gcu-2", 2, "s-1", 4294967296000},
                            {"k8s.gcu.enflame.com/gcu=u1-gcu-2-s-1"}});
  checkpoint.claims["u1"] = shared;
  CheckpointClaim whole;
  whole.ns = "demo";
  whole.name = "c2";
  whole.state = ClaimState::kPrepareStarted;
  whole.devices.push_back({{"a/b", "node-1", "gcu-0", 0, {}, {}},
                           {"k8s.gcu.enflame.com/gcu=u2-gcu-0"}});
  checkpoint.claims["u2"] = whole;
  return checkpoint;
}

TEST(CheckpointTest, RoundTrips) {
  const std::string text = EncodeCheckpoint(Sample());
  StatusOr<Checkpoint> decoded = DecodeCheckpoint(text, "/p/checkpoint.json");
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, Sample());
  json root = json::parse(text);
  EXPECT_EQ(root["version"], 1);
  EXPECT_EQ(root["bootId"], "boot-1");
  EXPECT_EQ(root["claims"]["u1"]["state"], "PrepareCompleted");
  EXPECT_EQ(root["claims"]["u2"]["state"], "PrepareStarted");
  EXPECT_EQ(root["claims"]["u1"]["devices"][0]["shareId"], "s-1");
  EXPECT_FALSE(root["claims"]["u2"]["devices"][0].contains("shareId"));
  EXPECT_EQ(root["checksum"].get<std::string>().size(), 16u);
  // Empty checkpoints too.
  StatusOr<Checkpoint> empty =
      DecodeCheckpoint(EncodeCheckpoint(Checkpoint{"b", {}}), "p");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(empty->claims.empty());
}

TEST(CheckpointTest, ToAllocatedClaim) {
  AllocatedClaim claim = ToAllocatedClaim("u1", Sample().claims["u1"]);
  EXPECT_EQ(claim.uid, "u1");
  EXPECT_EQ(claim.ns, "demo");
  ASSERT_EQ(claim.results.size(), 1u);
  EXPECT_EQ(claim.results[0].share_id, "s-1");
}

// A checkpoint text with `edit` applied to its body and the checksum
// recomputed, so only the edit is wrong.
std::string Resealed(const std::function<void(json&)>& edit) {
  json root = json::parse(EncodeCheckpoint(Sample()));
  root.erase("checksum");
  edit(root);
  // Re-encode through a valid checkpoint's checksum rule: FNV-1a-64 of the
  // compact dump.
  std::string body = root.dump();
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : body) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  char sum[17];
  std::snprintf(sum, sizeof(sum), "%016llx",
                static_cast<unsigned long long>(hash));
  root["checksum"] = sum;
  return root.dump(2);
}

TEST(CheckpointTest, RefusesDamage) {
  std::string flipped = EncodeCheckpoint(Sample());
  flipped.replace(flipped.find("gcu-2"), 5, "gcu-3");
  struct Case {
    std::string label;
    std::string text;
    std::string why;
  } cases[] = {
      {"bad checksum", flipped, "does not match"},
      {"truncated", EncodeCheckpoint(Sample()).substr(0, 100), "malformed"},
      {"not json", "hello", "malformed"},
      {"no checksum", R"({"version":1,"bootId":"b","claims":{}})",
       "checksum is missing"},
      {"unknown version", Resealed([](json& j) { j["version"] = 2; }),
       "unknown version 2"},
      {"bad state",
       Resealed([](json& j) { j["claims"]["u1"]["state"] = "Done"; }),
       "state \"Done\""},
      {"uid path",
       Resealed([](json& j) { j["claims"]["../../etc"] = j["claims"]["u1"]; }),
       "claims[../../etc]"},
      {"index mismatch", Resealed([](json& j) {
         j["claims"]["u1"]["devices"][0]["cardIndex"] = 7;
       }),
       "cardIndex"},
      {"wrong type", Resealed([](json& j) { j["claims"]["u1"]["name"] = 5; }),
       "name is not a string"},
      {"negative bytes", Resealed([](json& j) {
         j["claims"]["u1"]["devices"][0]["consumedMillibytes"] = -1;
       }),
       "consumedMillibytes"},
      {"too many devices", Resealed([](json& j) {
         json devices = json::array();
         for (int i = 0; i < 33; ++i) {
           devices.push_back(j["claims"]["u1"]["devices"][0]);
         }
         j["claims"]["u1"]["devices"] = devices;
       }),
       "at most 32"},
      {"huge", std::string(kMaxCheckpointBytes + 1, ' '), "larger than"},
      {"deep", std::string(1000, '[') + std::string(1000, ']'),
       "nested deeper"},
  };
  for (const Case& c : cases) {
    StatusOr<Checkpoint> decoded = DecodeCheckpoint(c.text, "/p/cp.json");
    ASSERT_FALSE(decoded.ok()) << c.label;
    EXPECT_EQ(decoded.status().code(), StatusCode::kDataLoss) << c.label;
    EXPECT_EQ(decoded.status().message().rfind("/p/cp.json", 0), 0u)
        << c.label << ": " << decoded.status();
    EXPECT_NE(decoded.status().message().find(c.why), std::string::npos)
        << c.label << ": " << decoded.status();
  }
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CheckpointTest, SaveAndLoad) {
  testing::ScratchDir dir;
  const std::string path = dir.Path("checkpoint.json");
  const auto now =
      std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));
  StatusOr<LoadedCheckpoint> none = LoadCheckpoint(path, now);
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_FALSE(none->found);
  EXPECT_TRUE(none->checkpoint.claims.empty());

  ASSERT_TRUE(SaveCheckpoint(Sample(), path).ok());
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  StatusOr<LoadedCheckpoint> loaded = LoadCheckpoint(path, now);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_TRUE(loaded->found);
  EXPECT_EQ(loaded->checkpoint, Sample());
}

TEST(CheckpointTest, CorruptFileIsMovedAsideNeverLost) {
  testing::ScratchDir dir;
  const std::string path = dir.Path("checkpoint.json");
  const auto now =
      std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));
  dir.WriteFile("checkpoint.json", "{garbage");
  StatusOr<LoadedCheckpoint> loaded = LoadCheckpoint(path, now);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_FALSE(loaded->found);
  EXPECT_TRUE(loaded->checkpoint.claims.empty());
  EXPECT_EQ(loaded->corrupt_kept_as, path + ".corrupt-1700000000");
  EXPECT_NE(loaded->corrupt_reason.find("malformed"), std::string::npos)
      << loaded->corrupt_reason;
  EXPECT_EQ(ReadAll(loaded->corrupt_kept_as), "{garbage");
  struct stat st;
  EXPECT_NE(::stat(path.c_str(), &st), 0);

  // A second corrupt file in the same second does not overwrite the first.
  dir.WriteFile("checkpoint.json", "{other");
  StatusOr<LoadedCheckpoint> again = LoadCheckpoint(path, now);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->corrupt_kept_as, path + ".corrupt-1700000000.1");
  EXPECT_EQ(ReadAll(path + ".corrupt-1700000000"), "{garbage");
  EXPECT_EQ(ReadAll(path + ".corrupt-1700000000.1"), "{other");
}

TEST(CheckpointTest, UnreadableFileIsAnErrorAndStays) {
  testing::ScratchDir dir;
  dir.MakeDir("checkpoint.json");  // A directory: read fails with EISDIR.
  StatusOr<LoadedCheckpoint> loaded = LoadCheckpoint(
      dir.Path("checkpoint.json"), std::chrono::system_clock::now());
  EXPECT_FALSE(loaded.ok());
  struct stat st;
  EXPECT_EQ(::stat(dir.Path("checkpoint.json").c_str(), &st), 0);
}

TEST(CheckpointTest, ReadsTheBootId) {
  testing::ScratchDir dir;
  dir.WriteFile("boot_id", "6f1c8a39-2b4e-4d1a-9c3e-7f2b1a0d9e8c\n");
  StatusOr<std::string> id = ReadBootId(dir.Path("boot_id"));
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(*id, "6f1c8a39-2b4e-4d1a-9c3e-7f2b1a0d9e8c");
  dir.WriteFile("empty", "\n");
  EXPECT_FALSE(ReadBootId(dir.Path("empty")).ok());
  StatusOr<std::string> missing = ReadBootId(dir.Path("missing"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("missing"), std::string::npos);
}

}  // namespace
}  // namespace gcushare::dra
