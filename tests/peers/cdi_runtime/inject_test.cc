#include "tests/peers/cdi_runtime/inject.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "testing/files.h"

namespace gcushare::peers::cdi_runtime {
namespace {

using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::WriteFileOrDie;

// A host with /dev/gcu0 (c 238:0), /dev/gcu1 (c 238:1) and /dev/sda (b 8:0).
StatusOr<HostDeviceInfo> FakeHost(const std::string& path) {
  static const std::map<std::string, HostDeviceInfo> kDevices = {
      {"/dev/gcu0", {"c", 238, 0}},
      {"/dev/gcu1", {"c", 238, 1}},
      {"/dev/sda", {"b", 8, 0}},
  };
  auto found = kDevices.find(path);
  if (found == kDevices.end()) return NotFoundError("no such file");
  return found->second;
}

cdi::DeviceNode Node(std::string path, std::string type = "c",
                     std::optional<int64_t> major = 238,
                     std::optional<int64_t> minor = 0) {
  cdi::DeviceNode node;
  node.path = std::move(path);
  node.type = std::move(type);
  node.major = major;
  node.minor = minor;
  return node;
}

cdi::Mount MountAt(std::string container_path, std::string host_path = "/h") {
  cdi::Mount mount;
  mount.host_path = std::move(host_path);
  mount.container_path = std::move(container_path);
  return mount;
}

TEST(ApplyEditsTest, EnvLaterReplacesEarlierInPlace) {
  struct Case {
    std::vector<std::string> base;
    std::vector<std::string> edits;
    std::vector<std::string> want;
  };
  const Case cases[] = {
      {{}, {"A=1", "B=2"}, {"A=1", "B=2"}},
      {{"PATH=/bin", "A=0"}, {"A=1"}, {"PATH=/bin", "A=1"}},
      {{}, {"A=1", "B=2", "A=3"}, {"A=3", "B=2"}},
      {{"A=x"}, {"AB=1"}, {"A=x", "AB=1"}},
      {{}, {"E="}, {"E="}},
  };
  for (const Case& c : cases) {
    ContainerView view;
    view.env = c.base;
    cdi::ContainerEdits edits;
    edits.env = c.edits;
    ASSERT_TRUE(ApplyEdits(edits, FakeHost, view).ok());
    EXPECT_EQ(view.env, c.want);
  }
}

TEST(ApplyEditsTest, DeviceNodesDeduplicatedByPathLatestWins) {
  ContainerView view;
  cdi::ContainerEdits edits;
  edits.device_nodes = {Node("/dev/gcu0"), Node("/dev/gcu1", "c", 238, 1),
                        Node("/dev/gcu0", "c", 238, 7)};
  ASSERT_TRUE(ApplyEdits(edits, FakeHost, view).ok());
  ASSERT_EQ(view.devices.size(), 2u);
  EXPECT_EQ(view.devices[0].path, "/dev/gcu1");
  EXPECT_EQ(view.devices[1].path, "/dev/gcu0");
  EXPECT_EQ(view.devices[1].minor, 7);
  EXPECT_EQ(view.devices[1].host_path, "/dev/gcu0");  // Defaulted.
  // Every node added a cgroup rule, duplicates included (runtime-tools).
  ASSERT_EQ(view.device_rules.size(), 3u);
  EXPECT_EQ(view.device_rules[0], (DeviceCgroupRule{true, "c", 238, 0, "rwm"}));
}

TEST(ApplyEditsTest, MissingTypeOrMajorIsReadFromTheHost) {
  struct Case {
    cdi::DeviceNode node;
    std::string want_type;
    int64_t want_major;
    int64_t want_minor;
    StatusCode want_code;
  };
  cdi::DeviceNode no_type = Node("/dev/gcu1", "", std::nullopt, std::nullopt);
  cdi::DeviceNode no_major = Node("/dev/gcu1", "c", std::nullopt, std::nullopt);
  cdi::DeviceNode wrong_type =
      Node("/dev/sda", "c", std::nullopt, std::nullopt);
  cdi::DeviceNode missing = Node("/dev/gcu9", "", std::nullopt, std::nullopt);
  cdi::DeviceNode given = Node("/dev/gcu9", "c", 238, 9);  // Not looked up.
  cdi::DeviceNode host_path = Node("/dev/gcu0", "", std::nullopt, std::nullopt);
  host_path.host_path = "/dev/sda";
  const Case cases[] = {
      {no_type, "c", 238, 1, StatusCode::kOk},
      {no_major, "c", 238, 1, StatusCode::kOk},
      {wrong_type, "", 0, 0, StatusCode::kInvalidArgument},
      {missing, "", 0, 0, StatusCode::kNotFound},
      {given, "c", 238, 9, StatusCode::kOk},
      {host_path, "b", 8, 0, StatusCode::kOk},
  };
  for (const Case& c : cases) {
    ContainerView view;
    cdi::ContainerEdits edits;
    edits.device_nodes = {c.node};
    Status status = ApplyEdits(edits, FakeHost, view);
    EXPECT_EQ(status.code(), c.want_code) << c.node.path << " " << status;
    if (!status.ok()) {
      EXPECT_NE(status.message().find(c.node.path == "/dev/sda" ? "mismatch"
                                                                : "stat"),
                std::string::npos)
          << status;
      continue;
    }
    ASSERT_EQ(view.devices.size(), 1u);
    EXPECT_EQ(view.devices[0].type, c.want_type);
    EXPECT_EQ(view.devices[0].major, c.want_major);
    EXPECT_EQ(view.devices[0].minor, c.want_minor);
  }
}

TEST(ApplyEditsTest, PermissionsAndOwnership) {
  ContainerView view;
  view.uid = 1000;
  view.gid = 1001;
  cdi::ContainerEdits edits;
  cdi::DeviceNode rw = Node("/dev/gcu0");
  rw.permissions = "rw";
  cdi::DeviceNode owned = Node("/dev/gcu1", "c", 238, 1);
  owned.uid = 7;
  edits.device_nodes = {rw, owned};
  ASSERT_TRUE(ApplyEdits(edits, FakeHost, view).ok());
  EXPECT_EQ(view.device_rules[0].access, "rw");
  EXPECT_EQ(view.devices[0].uid, 1000u);
  EXPECT_EQ(view.devices[0].gid, 1001u);
  EXPECT_EQ(view.devices[1].uid, 7u);
}

TEST(ApplyEditsTest, MountsReplacedByDestinationAndSortedByDepth) {
  ContainerView view;
  view.mounts = {MountAt("/a/b/c", "/old"), MountAt("/x")};
  cdi::ContainerEdits edits;
  edits.mounts = {MountAt("/a/b/c", "/new"), MountAt("/y/z/"), MountAt("/q")};
  ASSERT_TRUE(ApplyEdits(edits, FakeHost, view).ok());
  std::vector<std::string> order;
  for (const cdi::Mount& mount : view.mounts) {
    order.push_back(mount.container_path + "<-" + mount.host_path);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"/x<-/h", "/q<-/h", "/y/z/<-/h",
                                             "/a/b/c<-/new"}));
}

TEST(ApplyEditsTest, HooksAppendedGidsOnceAndNotZero) {
  ContainerView view;
  view.additional_gids = {44};
  cdi::ContainerEdits edits;
  cdi::Hook hook;
  hook.hook_name = "createContainer";
  hook.path = "/bin/hook";
  edits.hooks = {hook, hook};
  edits.additional_gids = {0, 44, 45, 45};
  ASSERT_TRUE(ApplyEdits(edits, FakeHost, view).ok());
  EXPECT_EQ(view.hooks.size(), 2u);
  EXPECT_EQ(view.additional_gids, (std::vector<uint32_t>{44, 45}));
}

// Two per-claim specs as the DRA driver writes them, plus a spec-level edit.
class InjectDevicesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir();
    WriteFileOrDie(dir_ + "/k8s.gcu.enflame.com-gcu_u1.json", R"({
      "cdiVersion": "0.5.0", "kind": "k8s.gcu.enflame.com/gcu",
      "containerEdits": {"env": ["SPEC=u1"]},
      "devices": [
        {"name": "u1-gcu-0", "containerEdits": {
           "env": ["ENFLAME_VISIBLE_DEVICES=0", "GCUSHARE_MEMORY_LIMIT_MB=4096"],
           "deviceNodes": [{"path": "/dev/gcu0", "type": "c",
                            "major": 238, "minor": 0}]}},
        {"name": "u1-gcu-1", "containerEdits": {
           "env": ["ENFLAME_VISIBLE_DEVICES=1"],
           "deviceNodes": [{"path": "/dev/gcu1", "type": "c",
                            "major": 238, "minor": 1}]}}]})");
    WriteFileOrDie(dir_ + "/k8s.gcu.enflame.com-gcu_u2.yaml",
                   "cdiVersion: 0.5.0\n"
                   "kind: k8s.gcu.enflame.com/gcu\n"
                   "containerEdits:\n  env: [\"SPEC=u2\"]\n"
                   "devices:\n"
                   "- name: u2-gcu-0-share\n"
                   "  containerEdits:\n"
                   "    env: [\"ENFLAME_VISIBLE_DEVICES=0\"]\n"
                   "    deviceNodes:\n"
                   "    - {path: /dev/gcu0, type: c, major: 238, minor: 0}\n");
  }
  std::string dir_;
};

TEST_F(InjectDevicesTest, SpecEditsOncePerSpecThenDeviceEditsInOrder) {
  ContainerView base;
  base.env = {"PATH=/bin"};
  auto view = InjectDevices(LoadCdiRegistry({dir_}),
                            {"k8s.gcu.enflame.com/gcu=u1-gcu-0",
                             "k8s.gcu.enflame.com/gcu=u2-gcu-0-share",
                             "k8s.gcu.enflame.com/gcu=u1-gcu-1"},
                            base, FakeHost);
  ASSERT_TRUE(view.ok()) << view.status();
  // u1's spec edit, u1-gcu-0, u2's spec edit (replaces SPEC), u2's device,
  // then u1-gcu-1 (no second SPEC=u1).
  EXPECT_EQ(view->env, (std::vector<std::string>{
                           "PATH=/bin", "SPEC=u2", "ENFLAME_VISIBLE_DEVICES=1",
                           "GCUSHARE_MEMORY_LIMIT_MB=4096"}));
  ASSERT_EQ(view->devices.size(), 2u);
  EXPECT_EQ(view->devices[0].path, "/dev/gcu0");
  EXPECT_EQ(view->devices[1].path, "/dev/gcu1");
}

TEST_F(InjectDevicesTest, UnknownNameRefusesTheWholeContainer) {
  ContainerView base;
  base.env = {"PATH=/bin"};
  auto view =
      InjectDevices(LoadCdiRegistry({dir_}),
                    {"k8s.gcu.enflame.com/gcu=u1-gcu-0",
                     "k8s.gcu.enflame.com/gcu=nope", "enflame.com/gcu=0"},
                    base, FakeHost);
  ASSERT_EQ(view.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(view.status().message(),
            "unresolvable CDI devices k8s.gcu.enflame.com/gcu=nope, "
            "enflame.com/gcu=0");
}

TEST_F(InjectDevicesTest, ConflictMakesTheNameUnresolvableAndSaysWhy) {
  WriteFileOrDie(dir_ + "/copy.json", R"({
      "cdiVersion": "0.5.0", "kind": "k8s.gcu.enflame.com/gcu",
      "devices": [{"name": "u1-gcu-0",
                   "containerEdits": {"env": ["X=1"]}}]})");
  auto view = InjectDevices(LoadCdiRegistry({dir_}),
                            {"k8s.gcu.enflame.com/gcu=u1-gcu-0"},
                            ContainerView{}, FakeHost);
  ASSERT_EQ(view.status().code(), StatusCode::kNotFound);
  EXPECT_NE(view.status().message().find("conflicting device"),
            std::string::npos)
      << view.status();
}

TEST_F(InjectDevicesTest, NoDevicesLeavesTheContainerAlone) {
  ContainerView base;
  base.env = {"PATH=/bin"};
  auto view = InjectDevices(LoadCdiRegistry({dir_}), {}, base, FakeHost);
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(view->env, base.env);
  EXPECT_TRUE(view->devices.empty());
}

TEST_F(InjectDevicesTest, ApplyCdiDevicesReadsTheDirectories) {
  auto view = ApplyCdiDevices({dir_}, {"k8s.gcu.enflame.com/gcu=u1-gcu-1"},
                              ContainerView{});
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_EQ(view->Env("ENFLAME_VISIBLE_DEVICES"), "1");
  EXPECT_EQ(view->Env("SPEC"), "u1");
  EXPECT_EQ(view->Env("MISSING"), std::nullopt);
  ASSERT_NE(view->Device("/dev/gcu1"), nullptr);
  EXPECT_EQ(view->Device("/dev/gcu1")->minor, 1);
}

}  // namespace
}  // namespace gcushare::peers::cdi_runtime
