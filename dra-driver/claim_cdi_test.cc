#include "dra-driver/claim_cdi.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "dra-driver/memory_quantity.h"
#include "testing/scratch_dir.h"

namespace gcushare::dra {
namespace {

constexpr uint64_t kGiMilli = (uint64_t{1} << 30) * 1000;

efml::Inventory Cards() {
  efml::Inventory inventory;
  for (uint32_t i = 0; i < 4; ++i) {
    efml::Card card;
    card.index = i;
    card.uuid = "GCU-" + std::to_string(i);
    card.memory_mib = 16384;
    card.device.path = efml::DefaultDevicePath(i);
    card.device.major = 238;
    card.device.minor = i;
    inventory.cards.push_back(card);
  }
  inventory.control_nodes.push_back({"/dev/gcuctl", {}, {}});
  return inventory;
}

AllocatedResult Share(std::string request, uint32_t card, std::string id,
                      uint64_t gib) {
  return {
      std::move(request), "node-1",      "gcu-" + std::to_string(card), card,
      std::move(id),      gib * kGiMilli};
}

AllocatedResult Whole(std::string request, uint32_t card) {
  return {std::move(request),
          "node-1",
          "gcu-" + std::to_string(card),
          card,
          {},
          {}};
}

AllocatedClaim Claim(const std::string& uid,
                     std::vector<AllocatedResult> results) {
  return {"demo", "c-" + uid, uid, std::move(results), {}};
}

contract::MemoryUnit Unit(std::string_view text) {
  return *contract::MemoryUnit::Parse(text);
}

TEST(ClaimCdiTest, Names) {
  AllocatedResult share = Share("gcu", 2, "s-1", 4);
  EXPECT_EQ(ClaimCdiDeviceName("uid-1", share), "uid-1-gcu-2-s-1");
  EXPECT_EQ(ClaimCdiDeviceId("uid-1", share),
            "k8s.gcu.enflame.com/gcu=uid-1-gcu-2-s-1");
  EXPECT_EQ(ClaimCdiDeviceName("uid-1", Whole("gcu", 0)), "uid-1-gcu-0");
  EXPECT_EQ(ClaimSpecFileName("uid-1"), "k8s.gcu.enflame.com-gcu_uid-1.json");
  EXPECT_EQ(ClaimSpecPath("/var/run/cdi", "u"),
            "/var/run/cdi/k8s.gcu.enflame.com-gcu_u.json");
  EXPECT_TRUE(CheckClaimUid("0b5ba6c3-8f2e-4c1a-9d3b-2a7e5f6c8d9e").ok());
  for (const std::string& bad : std::vector<std::string>{
           "", "../x", "a/b", "-a", std::string(129, 'a')}) {
    EXPECT_FALSE(CheckClaimUid(bad).ok()) << bad;
  }
}

TEST(ClaimCdiTest, SharedClaimCarriesTheLimitOnTheFirstDevice) {
  StatusOr<cdi::Spec> spec = BuildClaimSpec(
      Claim("u1", {Share("gcu", 1, "s1", 4)}), Cards(), Unit("1"));
  ASSERT_TRUE(spec.ok()) << spec.status();
  nlohmann::json want = nlohmann::json::parse(R"({
    "cdiVersion": "0.5.0",
    "kind": "k8s.gcu.enflame.com/gcu",
    "devices": [{
      "name": "u1-gcu-1-s1",
      "containerEdits": {
        "env": ["ENFLAME_VISIBLE_DEVICES=1", "GCUSHARE_MEMORY_LIMIT_MB=4096",
                "GCUSHARE_MEMORY_TOTAL_MB=16384", "GCUSHARE_MEMORY_UNIT=1"],
        "deviceNodes": [{"path": "/dev/gcu1", "type": "c", "major": 238,
                         "minor": 1}]
      }
    }],
    "containerEdits": {"deviceNodes": [{"path": "/dev/gcuctl", "type": "c"}]}
  })");
  EXPECT_EQ(cdi::ToJson(*spec), want) << cdi::ToJson(*spec).dump(2);
}

TEST(ClaimCdiTest, EnvPerRequest) {
  // Request "a": two whole cards (no limit); request "b": two shares on one
  // card (limit = their sum, 0.1 GiB units rounded down).
  AllocatedResult b1 = Share("b", 3, "x", 0);
  b1.consumed_millibytes = 4 * 107374182400;  // 0.4 GiB
  AllocatedResult b2 = Share("b", 3, "y", 1);
  StatusOr<cdi::Spec> spec =
      BuildClaimSpec(Claim("u2", {Whole("a", 0), Whole("a", 2), b1, b2}),
                     Cards(), Unit("0.1"));
  ASSERT_TRUE(spec.ok()) << spec.status();
  ASSERT_EQ(spec->devices.size(), 4u);
  EXPECT_EQ(spec->devices[0].name, "u2-gcu-0");
  EXPECT_EQ(spec->devices[0].container_edits.env,
            (std::vector<std::string>{"ENFLAME_VISIBLE_DEVICES=0,2",
                                      "GCUSHARE_MEMORY_TOTAL_MB=16384",
                                      "GCUSHARE_MEMORY_UNIT=0.1"}));
  EXPECT_TRUE(spec->devices[1].container_edits.env.empty());
  EXPECT_EQ(spec->devices[1].container_edits.device_nodes[0].path, "/dev/gcu2");
  EXPECT_EQ(spec->devices[2].name, "u2-gcu-3-x");
  EXPECT_EQ(spec->devices[2].container_edits.env,
            (std::vector<std::string>{
                "ENFLAME_VISIBLE_DEVICES=3", "GCUSHARE_MEMORY_LIMIT_MB=1433",
                "GCUSHARE_MEMORY_TOTAL_MB=16384", "GCUSHARE_MEMORY_UNIT=0.1"}));
  EXPECT_TRUE(spec->devices[3].container_edits.env.empty());
}

TEST(ClaimCdiTest, HostPathWhenTheNodeLivesElsewhere) {
  efml::Inventory cards = Cards();
  cards.cards[0].device.path = "/host/dev/gcu0";
  StatusOr<cdi::Spec> spec =
      BuildClaimSpec(Claim("u", {Whole("g", 0)}), cards, Unit("1"));
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->devices[0].container_edits.device_nodes[0].path, "/dev/gcu0");
  EXPECT_EQ(spec->devices[0].container_edits.device_nodes[0].host_path,
            "/host/dev/gcu0");
}

TEST(ClaimCdiTest, RefusesUnknownCardsAndEmptyClaims) {
  StatusOr<cdi::Spec> unknown =
      BuildClaimSpec(Claim("u", {Whole("g", 9)}), Cards(), Unit("1"));
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("claim demo/c-u (uid u)"),
            std::string::npos);
  EXPECT_NE(unknown.status().message().find("no card 9"), std::string::npos);
  EXPECT_FALSE(BuildClaimSpec(Claim("u", {}), Cards(), Unit("1")).ok());
  // A uid that is no CDI name fails validation, naming the claim.
  StatusOr<cdi::Spec> bad =
      BuildClaimSpec(Claim("-bad", {Whole("g", 0)}), Cards(), Unit("1"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("CDI spec"), std::string::npos);
}

// What a runtime does with the CDI devices of one container (the CDI
// library's ContainerEdits.Apply, as containerd uses it): for each device
// in order, its spec's top-level edits (once per spec) and its own edits;
// device nodes accumulate by path, and an env name set again takes the
// later value.
struct Container {
  std::set<std::string> nodes;
  std::map<std::string, std::string> env;
};

Container Apply(const std::vector<cdi::Spec>& specs,
                const std::vector<std::string>& ids) {
  Container out;
  std::set<const cdi::Spec*> seen;
  auto apply = [&out](const cdi::ContainerEdits& edits) {
    for (const cdi::DeviceNode& node : edits.device_nodes) {
      out.nodes.insert(node.path);
    }
    for (const std::string& entry : edits.env) {
      size_t eq = entry.find('=');
      out.env[entry.substr(0, eq)] = entry.substr(eq + 1);
    }
  };
  for (const std::string& id : ids) {
    bool found = false;
    for (const cdi::Spec& spec : specs) {
      for (const cdi::Device& device : spec.devices) {
        if (spec.kind + "=" + device.name != id) continue;
        if (seen.insert(&spec).second) apply(spec.container_edits);
        apply(device.container_edits);
        found = true;
      }
    }
    EXPECT_TRUE(found) << id;
  }
  return out;
}

TEST(ClaimCdiTest, ContainerWithTwoClaimsSeesBothNodesAndTheLastEnv) {
  AllocatedClaim first = Claim("ua", {Share("gcu", 0, "s1", 4)});
  AllocatedClaim second = Claim("ub", {Share("gcu", 1, "s2", 8)});
  StatusOr<cdi::Spec> a = BuildClaimSpec(first, Cards(), Unit("1"));
  StatusOr<cdi::Spec> b = BuildClaimSpec(second, Cards(), Unit("1"));
  ASSERT_TRUE(a.ok() && b.ok());
  std::vector<std::string> ids = {ClaimCdiDeviceId("ua", first.results[0]),
                                  ClaimCdiDeviceId("ub", second.results[0])};
  Container seen = Apply({*a, *b}, ids);
  EXPECT_EQ(seen.nodes,
            (std::set<std::string>{"/dev/gcu0", "/dev/gcu1", "/dev/gcuctl"}));
  EXPECT_EQ(seen.env["ENFLAME_VISIBLE_DEVICES"], "1");
  EXPECT_EQ(seen.env["GCUSHARE_MEMORY_LIMIT_MB"], "8192");
  // The other order: the other claim's env wins.
  Container reversed = Apply({*a, *b}, {ids[1], ids[0]});
  EXPECT_EQ(reversed.env["ENFLAME_VISIBLE_DEVICES"], "0");
  EXPECT_EQ(reversed.env["GCUSHARE_MEMORY_LIMIT_MB"], "4096");
  // One request with two cards: both nodes and one env naming both.
  AllocatedClaim both =
      Claim("uc", {Share("gcu", 0, "s1", 4), Share("gcu", 1, "s2", 8)});
  StatusOr<cdi::Spec> c = BuildClaimSpec(both, Cards(), Unit("1"));
  ASSERT_TRUE(c.ok());
  Container one = Apply({*c}, {ClaimCdiDeviceId("uc", both.results[0]),
                               ClaimCdiDeviceId("uc", both.results[1])});
  EXPECT_EQ(one.env["ENFLAME_VISIBLE_DEVICES"], "0,1");
  EXPECT_EQ(one.env["GCUSHARE_MEMORY_LIMIT_MB"], "12288");
  EXPECT_EQ(one.env["GCUSHARE_MEMORY_TOTAL_MB"], "16384");
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ClaimCdiTest, WritesAndRemovesTheSpecFile) {
  testing::ScratchDir dir;
  const std::string cdi_dir = dir.Path("run/cdi");  // Created on demand.
  StatusOr<cdi::Spec> spec = BuildClaimSpec(
      Claim("u1", {Share("gcu", 1, "s1", 4)}), Cards(), Unit("1"));
  ASSERT_TRUE(spec.ok());
  StatusOr<std::string> path = WriteClaimSpec(*spec, cdi_dir, "u1");
  ASSERT_TRUE(path.ok()) << path.status();
  EXPECT_EQ(*path, cdi_dir + "/k8s.gcu.enflame.com-gcu_u1.json");
  EXPECT_EQ(nlohmann::json::parse(ReadAll(*path)), cdi::ToJson(*spec));
  struct stat st;
  ASSERT_EQ(::stat(path->c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);

  // An invalid spec is refused and the file stays as it was.
  cdi::Spec bad = *spec;
  bad.devices[0].container_edits.device_nodes[0].path = "dev/gcu1";
  EXPECT_FALSE(WriteClaimSpec(bad, cdi_dir, "u1").ok());
  EXPECT_EQ(nlohmann::json::parse(ReadAll(*path)), cdi::ToJson(*spec));
  EXPECT_FALSE(WriteClaimSpec(*spec, cdi_dir, "../u1").ok());

  ASSERT_TRUE(RemoveClaimSpec(cdi_dir, "u1").ok());
  EXPECT_NE(::stat(path->c_str(), &st), 0);
  EXPECT_TRUE(RemoveClaimSpec(cdi_dir, "u1").ok());  // Missing: fine.
  EXPECT_FALSE(RemoveClaimSpec(cdi_dir, "a/../../b").ok());
}

}  // namespace
}  // namespace gcushare::dra
