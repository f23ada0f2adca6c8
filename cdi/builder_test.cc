#include "cdi/builder.h"

#include <string>
#include <vector>

#include "cdi/validator.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string Uuid(uint32_t index) {
  std::string number = std::to_string(index + 1);
  return "GCU-U" + std::string(10 - number.size(), '0') + number;
}

efml::Inventory EightCards() {
  efml::Inventory inventory;
  for (uint32_t i = 0; i < 8; ++i) {
    efml::Card card;
    card.index = i;
    card.uuid = Uuid(i);
    card.memory_mib = 32768;
    card.device.path = "/dev/gcu" + std::to_string(i);
    card.device.major = 238;
    card.device.minor = i;
    inventory.cards.push_back(card);
  }
  inventory.control_nodes.push_back({"/dev/gcuctl", 238, 255});
  return inventory;
}

std::vector<std::string> Names(const Spec& spec) {
  std::vector<std::string> names;
  for (const Device& device : spec.devices) names.push_back(device.name);
  return names;
}

DeviceNode Node(uint32_t index) {
  DeviceNode node;
  node.path = "/dev/gcu" + std::to_string(index);
  node.type = "c";
  node.major = 238;
  node.minor = index;
  return node;
}

TEST(BuilderTest, EightCardsGiveSeventeenDevicesInOrder) {
  StatusOr<Spec> spec = BuildSpec(EightCards());
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->kind, "enflame.com/gcu");
  EXPECT_EQ(spec->cdi_version, "0.5.0");
  EXPECT_EQ(Names(*spec),
            (std::vector<std::string>{
                "0", "1", "2", "3", "4", "5", "6", "7", "GCU-U0000000001",
                "GCU-U0000000002", "GCU-U0000000003", "GCU-U0000000004",
                "GCU-U0000000005", "GCU-U0000000006", "GCU-U0000000007",
                "GCU-U0000000008", "all"}));
}

TEST(BuilderTest, EachCardDeviceHasItsNodeAndEnv) {
  StatusOr<Spec> spec = BuildSpec(EightCards());
  ASSERT_TRUE(spec.ok()) << spec.status();
  for (uint32_t i = 0; i < 8; ++i) {
    for (const Device* device : {&spec->devices[i], &spec->devices[8 + i]}) {
      SCOPED_TRACE(device->name);
      EXPECT_EQ(device->container_edits.env,
                std::vector<std::string>{"ENFLAME_VISIBLE_DEVICES=" +
                                         std::to_string(i)});
      EXPECT_EQ(device->container_edits.device_nodes,
                std::vector<DeviceNode>{Node(i)});
      EXPECT_TRUE(device->container_edits.mounts.empty());
      EXPECT_TRUE(device->container_edits.hooks.empty());
    }
  }
}

TEST(BuilderTest, AllDeviceHasEveryNodeAndEveryIndex) {
  StatusOr<Spec> spec = BuildSpec(EightCards());
  ASSERT_TRUE(spec.ok()) << spec.status();
  const Device& all = spec->devices.back();
  EXPECT_EQ(all.name, "all");
  EXPECT_EQ(
      all.container_edits.env,
      std::vector<std::string>{"ENFLAME_VISIBLE_DEVICES=0,1,2,3,4,5,6,7"});
  std::vector<DeviceNode> nodes;
  for (uint32_t i = 0; i < 8; ++i) nodes.push_back(Node(i));
  EXPECT_EQ(all.container_edits.device_nodes, nodes);
}

TEST(BuilderTest, ControlNodesAreSpecLevelEditsOnly) {
  StatusOr<Spec> spec = BuildSpec(EightCards());
  ASSERT_TRUE(spec.ok()) << spec.status();
  DeviceNode control;
  control.path = "/dev/gcuctl";
  control.type = "c";
  control.major = 238;
  control.minor = 255;
  EXPECT_EQ(spec->container_edits.device_nodes,
            std::vector<DeviceNode>{control});
  EXPECT_TRUE(spec->container_edits.env.empty());
  for (const Device& device : spec->devices) {
    for (const DeviceNode& node : device.container_edits.device_nodes) {
      EXPECT_NE(node.path, "/dev/gcuctl") << device.name;
    }
  }
}

TEST(BuilderTest, ResultIsValidAndItsJsonIsExact) {
  efml::Inventory inventory;
  efml::Card card;
  card.index = 0;
  card.uuid = "GCU-A";
  card.memory_mib = 1024;
  card.device.path = "/dev/gcu0";  // Device numbers unknown.
  inventory.cards.push_back(card);
  StatusOr<Spec> spec = BuildSpec(inventory);
  ASSERT_TRUE(spec.ok()) << spec.status();
  Json json = ToJson(*spec);
  EXPECT_TRUE(ValidateSpec(json).ok()) << ValidateSpec(json);
  EXPECT_EQ(json, Json::parse(R"({
    "cdiVersion": "0.5.0",
    "kind": "enflame.com/gcu",
    "devices": [
      {"name": "0", "containerEdits": {
        "env": ["ENFLAME_VISIBLE_DEVICES=0"],
        "deviceNodes": [{"path": "/dev/gcu0", "type": "c"}]}},
      {"name": "GCU-A", "containerEdits": {
        "env": ["ENFLAME_VISIBLE_DEVICES=0"],
        "deviceNodes": [{"path": "/dev/gcu0", "type": "c"}]}},
      {"name": "all", "containerEdits": {
        "env": ["ENFLAME_VISIBLE_DEVICES=0"],
        "deviceNodes": [{"path": "/dev/gcu0", "type": "c"}]}}
    ]
  })"))
      << json.dump(2);
  EXPECT_TRUE(ValidateSpec(ToJson(*BuildSpec(EightCards()))).ok());
}

TEST(BuilderTest, HostNodeElsewhereBecomesHostPath) {
  efml::Inventory inventory = EightCards();
  inventory.cards[2].device.path = "/dev/enflame/gcu2";
  StatusOr<Spec> spec = BuildSpec(inventory);
  ASSERT_TRUE(spec.ok()) << spec.status();
  const DeviceNode& node = spec->devices[2].container_edits.device_nodes[0];
  EXPECT_EQ(node.path, "/dev/gcu2");
  EXPECT_EQ(node.host_path, "/dev/enflame/gcu2");
  EXPECT_EQ(spec->cdi_version, "0.5.0");
  EXPECT_TRUE(ValidateSpec(ToJson(*spec)).ok());
}

TEST(BuilderTest, CardsAreOrderedByIndexAndIndexesNeedNotBeContiguous) {
  efml::Inventory inventory = EightCards();
  inventory.cards = {inventory.cards[5], inventory.cards[1]};
  StatusOr<Spec> spec = BuildSpec(inventory);
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(Names(*spec), (std::vector<std::string>{"1", "5", "GCU-U0000000002",
                                                    "GCU-U0000000006", "all"}));
  EXPECT_EQ(spec->devices.back().container_edits.env,
            std::vector<std::string>{"ENFLAME_VISIBLE_DEVICES=1,5"});
}

TEST(BuilderTest, SameInventorySameSpec) {
  StatusOr<Spec> a = BuildSpec(EightCards());
  StatusOr<Spec> b = BuildSpec(EightCards());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
}

TEST(BuilderTest, NoCardsIsAnError) {
  StatusOr<Spec> spec = BuildSpec(efml::Inventory{});
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(spec.status().message(), HasSubstr("no cards"));
}

TEST(BuilderTest, UuidWithForbiddenCharacter) {
  efml::Inventory inventory = EightCards();
  inventory.cards[3].uuid = "GCU/1";
  StatusOr<Spec> spec = BuildSpec(inventory);
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(spec.status().message(),
              StartsWith("card 3: uuid \"GCU/1\" cannot be a CDI device name: "
                         "'/' is not allowed"));
}

TEST(BuilderTest, UuidEndingBadly) {
  efml::Inventory inventory = EightCards();
  inventory.cards[0].uuid = "GCU-";
  StatusOr<Spec> spec = BuildSpec(inventory);
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(),
              StartsWith("card 0: uuid \"GCU-\" cannot be a CDI device name: "
                         "must end with a letter or digit"));
}

TEST(BuilderTest, UuidClashingWithIndexOrAll) {
  efml::Inventory inventory = EightCards();
  inventory.cards[0].uuid = "5";
  StatusOr<Spec> spec = BuildSpec(inventory);
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().message(),
            "card 0: uuid \"5\" cannot be a CDI device name: it is already the "
            "name of card 5's index device");

  inventory = EightCards();
  inventory.cards[7].uuid = "all";
  spec = BuildSpec(inventory);
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().message(),
            "card 7: uuid \"all\" cannot be a CDI device name: it is already "
            "the name of the all-cards device");
}

TEST(BuilderTest, DuplicateIndexOrUuid) {
  efml::Inventory inventory = EightCards();
  inventory.cards[4].index = 3;
  StatusOr<Spec> spec = BuildSpec(inventory);
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(),
              HasSubstr("card 3: the index appears more than once"));

  inventory = EightCards();
  inventory.cards[4].uuid = inventory.cards[2].uuid;
  spec = BuildSpec(inventory);
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(),
              HasSubstr("card 4: uuid \"GCU-U0000000003\" cannot be a CDI "
                        "device name: it is already the name of card 2's uuid "
                        "device"));
}

}  // namespace
}  // namespace gcushare::cdi
