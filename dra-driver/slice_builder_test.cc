#include "dra-driver/slice_builder.h"

#include <gtest/gtest.h>

#include "dra-driver/memory_quantity.h"

namespace gcushare::dra {
namespace {

using nlohmann::json;

efml::Card MakeCard(uint32_t index, uint64_t memory_mib = 16384) {
  efml::Card card;
  card.index = index;
  card.uuid = "GCU-U" + std::to_string(1000 + index);
  card.memory_mib = memory_mib;
  card.device.path = efml::DefaultDevicePath(index);
  card.numa_node = static_cast<int>(index % 2);
  return card;
}

efml::Inventory Cards(uint32_t count) {
  efml::Inventory inventory;
  for (uint32_t i = 0; i < count; ++i) inventory.cards.push_back(MakeCard(i));
  return inventory;
}

SliceBuilderOptions Options() {
  SliceBuilderOptions options;
  options.node_name = "node-a";
  options.node_uid = "uid-a";
  options.driver_version = "1.4.0";
  options.card_model = "S60";
  return options;
}

std::vector<json> Build(const efml::Inventory& inventory,
                        const SliceBuilderOptions& options,
                        int64_t generation = 3) {
  StatusOr<std::vector<json>> slices =
      BuildSlices(inventory, options, generation);
  EXPECT_TRUE(slices.ok()) << slices.status();
  return slices.ok() ? *slices : std::vector<json>{};
}

TEST(SliceBuilderTest, OneCardWholeObject) {
  const std::vector<json> slices = Build(Cards(1), Options());
  ASSERT_EQ(slices.size(), 1u);
  const json want = json::parse(R"({
    "apiVersion": "resource.k8s.io/v1",
    "kind": "ResourceSlice",
    "metadata": {
      "generateName": "node-a-gcu.enflame.com-",
      "ownerReferences": [{"apiVersion": "v1", "kind": "Node",
        "name": "node-a", "uid": "uid-a", "controller": true}]
    },
    "spec": {
      "driver": "gcu.enflame.com",
      "nodeName": "node-a",
      "pool": {"name": "node-a", "generation": 3, "resourceSliceCount": 1},
      "devices": [{
        "name": "gcu-0",
        "attributes": {
          "uuid": {"string": "GCU-U1000"},
          "index": {"int": 0},
          "model": {"string": "S60"},
          "numaNode": {"int": 0},
          "driverVersion": {"version": "1.4.0"}
        },
        "capacity": {"memory": {"value": "16Gi", "requestPolicy": {
          "default": "16Gi",
          "validRange": {"min": "1Gi", "step": "1Gi", "max": "16Gi"}}}},
        "allowMultipleAllocations": true
      }]
    }
  })");
  EXPECT_EQ(slices[0], want) << slices[0].dump(2);
}

TEST(SliceBuilderTest, EightCardsOneSlice) {
  const std::vector<json> slices = Build(Cards(8), Options());
  ASSERT_EQ(slices.size(), 1u);
  const json& devices = slices[0]["spec"]["devices"];
  ASSERT_EQ(devices.size(), 8u);
  for (uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(devices[i]["name"], "gcu-" + std::to_string(i));
    EXPECT_EQ(devices[i]["attributes"]["index"]["int"], i);
  }
}

TEST(SliceBuilderTest, SplitsAt128Devices) {
  for (const auto& [cards, sizes] :
       std::vector<std::pair<uint32_t, std::vector<size_t>>>{
           {128, {128}},
           {129, {128, 1}},
           {200, {128, 72}},
           {256, {128, 128}}}) {
    const std::vector<json> slices = Build(Cards(cards), Options());
    ASSERT_EQ(slices.size(), sizes.size()) << cards;
    uint32_t next = 0;
    for (size_t s = 0; s < slices.size(); ++s) {
      EXPECT_EQ(slices[s]["spec"]["devices"].size(), sizes[s]) << cards;
      EXPECT_EQ(slices[s]["spec"]["pool"]["resourceSliceCount"], sizes.size());
      EXPECT_EQ(slices[s]["spec"]["pool"]["generation"], 3);
      for (const json& device : slices[s]["spec"]["devices"]) {
        EXPECT_EQ(device["name"], "gcu-" + std::to_string(next++));
      }
    }
    EXPECT_EQ(next, cards);
  }
}

TEST(SliceBuilderTest, SplitsAt64WhenTainted) {
  efml::Inventory inventory = Cards(200);
  inventory.cards[150].healthy = false;
  SliceBuilderOptions options = Options();
  options.taint_unhealthy = true;
  const std::vector<json> slices = Build(inventory, options);
  ASSERT_EQ(slices.size(), 4u);
  EXPECT_EQ(slices[0]["spec"]["devices"].size(), 64u);
  EXPECT_EQ(slices[3]["spec"]["devices"].size(), 8u);
  const json& tainted = slices[2]["spec"]["devices"][150 - 128];
  EXPECT_EQ(tainted["name"], "gcu-150");
  EXPECT_EQ(tainted["taints"], json::parse(R"([{"key":
      "gcu.enflame.com/unhealthy", "effect": "NoSchedule"}])"));
}

TEST(SliceBuilderTest, UnhealthyLeftOutWithoutTaints) {
  efml::Inventory inventory = Cards(3);
  inventory.cards[1].healthy = false;
  const std::vector<json> slices = Build(inventory, Options());
  ASSERT_EQ(slices.size(), 1u);
  const json& devices = slices[0]["spec"]["devices"];
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[0]["name"], "gcu-0");
  EXPECT_EQ(devices[1]["name"], "gcu-2");
  EXPECT_FALSE(devices[0].contains("taints"));
}

TEST(SliceBuilderTest, NoCardsGivesOneEmptySlice) {
  const std::vector<json> slices = Build(efml::Inventory{}, Options());
  ASSERT_EQ(slices.size(), 1u);
  EXPECT_EQ(slices[0]["spec"]["devices"], json::array());
  EXPECT_EQ(slices[0]["spec"]["pool"]["resourceSliceCount"], 1);
}

TEST(SliceBuilderTest, NumaAbsentWhenUnknown) {
  efml::Inventory inventory = Cards(1);
  inventory.cards[0].numa_node.reset();
  const json device = Build(inventory, Options())[0]["spec"]["devices"][0];
  EXPECT_FALSE(device["attributes"].contains("numaNode"));
  EXPECT_EQ(device["attributes"].size(), 4u);
}

TEST(SliceBuilderTest, WholeCardWithoutConsumableCapacity) {
  SliceBuilderOptions options = Options();
  options.consumable_capacity = false;
  const json device = Build(Cards(1), options)[0]["spec"]["devices"][0];
  EXPECT_FALSE(device.contains("allowMultipleAllocations"));
  EXPECT_EQ(device["capacity"], json::parse(R"({"memory": {"value":
      "16Gi"}})"));
}

// The request policy per memory unit: min = step = the unit in whole bytes
// (rounded up), default = max = the card rounded down to whole steps.
TEST(SliceBuilderTest, PolicyPerMemoryUnit) {
  const struct {
    std::string unit;
    uint64_t memory_mib;
    std::string value, step, full;
  } kCases[] = {
      {"1", 16384, "16Gi", "1Gi", "16Gi"},
      {"1", 15000, "15000Mi", "1Gi", "14Gi"},
      // 0.1 GiB: 107374183 bytes; 16 GiB holds 159 whole steps.
      {"0.1", 16384, "16Gi", "107374183", "17072495097"},
      {"0.01", 16384, "16Gi", "10737419", "17169132981"},
      {"0.001", 16384, "16Gi", "1073742", "17178798258"},
      {"0.1", 1024, "1Gi", "107374183", "966367647"},
  };
  for (const auto& c : kCases) {
    SliceBuilderOptions options = Options();
    options.memory_unit = contract::MemoryUnit::Parse(c.unit).value();
    efml::Inventory inventory;
    inventory.cards.push_back(MakeCard(0, c.memory_mib));
    const json memory = Build(
        inventory, options)[0]["spec"]["devices"][0]["capacity"]["memory"];
    EXPECT_EQ(memory["value"], c.value) << c.unit;
    EXPECT_EQ(memory["requestPolicy"]["validRange"]["min"], c.step) << c.unit;
    EXPECT_EQ(memory["requestPolicy"]["validRange"]["step"], c.step) << c.unit;
    const uint64_t step = UnitBytes(options.memory_unit);
    const uint64_t full = c.memory_mib * kBytesPerMib / step * step;
    EXPECT_EQ(memory["requestPolicy"]["validRange"]["max"], FormatBytes(full))
        << c.unit;
    EXPECT_EQ(memory["requestPolicy"]["default"], FormatBytes(full)) << c.unit;
  }
}

// Quantity.Value(): the amount rounded up to a whole number.
int64_t Value(const json& quantity) {
  const int64_t milli = ParseMilliValue(quantity.get<std::string>()).value();
  return (milli + 999) / 1000;
}

// The checks kube-apiserver 1.34-1.36 make on a validRange
// (validateRequestPolicyRange: integer arithmetic on Value() without the
// DRAFractionalCapacityRange gate), for every unit and some card sizes.
TEST(SliceBuilderTest, PolicyPassesTheApiServersRangeChecks) {
  for (std::string unit : {"1", "0.1", "0.01", "0.001"}) {
    for (uint64_t memory_mib :
         {2048u, 15000u, 16384u, 24576u, 32768u, 65536u, 98304u, 1234567u}) {
      SliceBuilderOptions options = Options();
      options.memory_unit = contract::MemoryUnit::Parse(unit).value();
      efml::Inventory inventory;
      inventory.cards.push_back(MakeCard(0, memory_mib));
      const json memory = Build(
          inventory, options)[0]["spec"]["devices"][0]["capacity"]["memory"];
      const std::string what = unit + " " + std::to_string(memory_mib);
      const json& policy = memory["requestPolicy"];
      const json& range = policy["validRange"];
      const int64_t value = Value(memory["value"]);
      const int64_t min = Value(range["min"]);
      const int64_t step = Value(range["step"]);
      const int64_t max = Value(range["max"]);
      const int64_t deflt = Value(policy["default"]);
      EXPECT_LE(min, value) << what;
      EXPECT_GE(deflt, min) << what;
      EXPECT_LE(min, max) << what;
      EXPECT_LE(max, value) << what;
      EXPECT_LE(deflt, max) << what;
      EXPECT_LE(min + step, value) << what;
      EXPECT_EQ((deflt - min) % step, 0) << what;
      EXPECT_EQ((max - min) % step, 0) << what;
      // The default takes the whole card: what is left is less than a step.
      EXPECT_LT(value - deflt, step) << what;
    }
  }
}

TEST(SliceBuilderTest, RejectsBadOptions) {
  const std::vector<std::pair<std::string, SliceBuilderOptions>> kCases = [] {
    std::vector<std::pair<std::string, SliceBuilderOptions>> cases;
    SliceBuilderOptions o = Options();
    o.node_name = "";
    cases.emplace_back("node name", o);
    o = Options();
    o.node_uid = "";
    cases.emplace_back("node uid", o);
    for (std::string version : {"", "1.4", "v1.4.0", "01.4.0", "1.4.0-"}) {
      o = Options();
      o.driver_version = version;
      cases.emplace_back("version " + version, o);
    }
    o = Options();
    o.card_model = std::string(65, 'm');
    cases.emplace_back("model", o);
    return cases;
  }();
  for (const auto& [what, options] : kCases) {
    StatusOr<std::vector<json>> slices = BuildSlices(Cards(1), options, 1);
    ASSERT_FALSE(slices.ok()) << what;
    EXPECT_EQ(slices.status().code(), StatusCode::kInvalidArgument) << what;
  }
}

TEST(SliceBuilderTest, SemverTable) {
  for (std::string good :
       {"0.0.0", "1.4.0", "10.20.30", "1.0.0-rc.1", "1.0.0-alpha-a.b-c",
        "1.0.0+build.5", "1.0.0-rc.1+20260101"}) {
    EXPECT_TRUE(IsSemver(good)) << good;
  }
  for (std::string bad :
       {"1", "1.0", "1.0.0.0", "v1.0.0", "1.0.0-", "1.0.0-01", "1.0.0+", "1..0",
        "a.b.c", "1.0.0-rc..1", "1.0.0+b_1"}) {
    EXPECT_FALSE(IsSemver(bad)) << bad;
  }
}

}  // namespace
}  // namespace gcushare::dra
