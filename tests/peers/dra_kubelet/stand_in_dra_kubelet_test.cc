// StandInDraKubelet against FakeDraPlugin over real unix sockets under
// /tmp, with a FakeClock for every kubelet delay and a FakeKubeClient
// holding the Node, the ResourceSlices and the ResourceClaims.
#include "tests/peers/dra_kubelet/stand_in_dra_kubelet.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <memory>

#include "base/testing/fake_clock.h"
#include "kube/testing/fake_kube_client.h"
#include "testing/eventually.h"
#include "testing/files.h"
#include "tests/peers/dra_kubelet/fake_dra_plugin.h"

namespace gcushare::peers::dra_kubelet {
namespace {

using ::gcushare::testing::Eventually;
using ::gcushare::testing::MakeTempDir;
using nlohmann::json;
using std::chrono::seconds;

constexpr char kDriver[] = "gcu.enflame.com";
constexpr char kNode[] = "node-1";

json Slice(const std::string& name, const std::string& node,
           const std::string& driver) {
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceSlice"},
          {"metadata", {{"name", name}}},
          {"spec",
           {{"driver", driver},
            {"nodeName", node},
            {"pool",
             {{"name", node}, {"generation", 1}, {"resourceSliceCount", 1}}}}}};
}

class StandInDraKubeletTest : public ::testing::Test {
 protected:
  void SetUp() override {
    registry_dir_ = MakeTempDir();
    plugin_dir_ = MakeTempDir();
    cdi_dir_ = MakeTempDir();
    ASSERT_TRUE(
        kube_.Seed(kube::Resource::Nodes(), {{"metadata", {{"name", kNode}}}})
            .ok());
  }
  void TearDown() override {
    if (kubelet_) kubelet_->Stop();
  }

  void StartKubelet() {
    DraKubeletOptions options;
    options.node_name = kNode;
    options.registry_dir = registry_dir_;
    options.cdi_dirs = {cdi_dir_};
    options.clock = &clock_;
    options.kube = &kube_;
    options.max_reconnect_backoff_ms = 200;
    kubelet_ = std::make_unique<StandInDraKubelet>(options);
    ASSERT_TRUE(kubelet_->Start().ok());
  }

  FakePluginConfig Config() {
    FakePluginConfig config;
    config.registry_dir = registry_dir_;
    config.plugin_dir = plugin_dir_;
    config.cdi_dir = cdi_dir_;
    return config;
  }

  std::unique_ptr<FakeDraPlugin> StartPlugin(FakePluginConfig config) {
    auto plugin = std::make_unique<FakeDraPlugin>(std::move(config));
    plugin->Start();
    return plugin;
  }

  // The plugin heard back and the kubelet recorded the attempt.
  bool Registered(const FakeDraPlugin& plugin) {
    return Eventually([&] {
      return !plugin.notifications().empty() &&
             !kubelet_->View().registrations.empty();
    });
  }

  bool Connected(const std::string& endpoint) {
    for (const PluginView& p : kubelet_->View().plugins) {
      if (p.endpoint == endpoint && p.connected) return true;
    }
    return false;
  }

  std::vector<std::string> SliceNames() {
    std::vector<std::string> names;
    auto list = kube_.List(kube::Resource::ResourceSlices(), "", {});
    if (!list.ok()) return names;
    for (const json& item : list->items) {
      names.push_back(item["metadata"]["name"]);
    }
    return names;
  }

  // Waits for the start-up wipe, then seeds `slices`.
  void SeedSlicesAfterStartupWipe(const std::vector<json>& slices) {
    ASSERT_TRUE(Eventually([&] { return !kubelet_->View().wipes.empty(); }));
    for (const json& slice : slices) {
      ASSERT_TRUE(kube_.Seed(kube::Resource::ResourceSlices(), slice).ok());
    }
  }

  std::string registry_dir_;
  std::string plugin_dir_;
  std::string cdi_dir_;
  base::FakeClock clock_;
  kube::FakeKubeClient kube_;
  std::unique_ptr<StandInDraKubelet> kubelet_;
};

// ---- Registration ----

TEST_F(StandInDraKubeletTest, RegistersPreferringV1AndNotifies) {
  StartKubelet();
  auto plugin = StartPlugin(Config());
  ASSERT_TRUE(Registered(*plugin));
  EXPECT_EQ(plugin->notifications()[0], std::make_pair(true, std::string()));
  DraKubeletView view = kubelet_->View();
  ASSERT_EQ(view.registrations.size(), 1u);
  const RegistrationRecord& record = view.registrations[0];
  EXPECT_TRUE(record.registered);
  EXPECT_TRUE(record.notified);
  EXPECT_EQ(record.driver_name, kDriver);
  EXPECT_EQ(record.endpoint, plugin->endpoint());
  EXPECT_EQ(record.chosen_service, "v1.DRAPlugin");
  ASSERT_EQ(view.plugins.size(), 1u);
  EXPECT_TRUE(view.plugins[0].serves_health);

  auto answers = kubelet_->PrepareClaims(
      kDriver, {{"demo", "uid-a", "a"}, {"demo", "uid-b", "b"}});
  ASSERT_TRUE(answers.ok()) << answers.status();
  ASSERT_EQ(answers->size(), 2u);
  const PreparedDevice& device = answers->at("uid-a").devices.at(0);
  EXPECT_EQ(device.device_name, "gcu-0");
  EXPECT_EQ(device.share_id, "s-uid-a");
  EXPECT_EQ(device.cdi_device_ids,
            std::vector<std::string>{"k8s.gcu.enflame.com/gcu=uid-a-gcu-0"});
  ASSERT_EQ(plugin->calls().size(), 1u);
  EXPECT_EQ(plugin->calls()[0].version, "v1");
  EXPECT_EQ(plugin->calls()[0].uids,
            (std::vector<std::string>{"uid-a", "uid-b"}));

  auto unprepared = kubelet_->UnprepareClaims(
      kDriver, {{"demo", "uid-a", "a"}, {"demo", "uid-b", "b"}});
  ASSERT_TRUE(unprepared.ok()) << unprepared.status();
  EXPECT_EQ(unprepared->size(), 2u);
  EXPECT_EQ(plugin->calls().back().method, "unprepare");
}

TEST_F(StandInDraKubeletTest, FallsBackToV1beta1InThePluginsOrder) {
  StartKubelet();
  FakePluginConfig config = Config();
  config.versions = {"v1alpha4.Node", "v1beta1.DRAPlugin", "v1.DRAPlugin"};
  auto plugin = StartPlugin(config);
  ASSERT_TRUE(Registered(*plugin));
  EXPECT_TRUE(plugin->notifications()[0].first);
  EXPECT_EQ(kubelet_->View().registrations[0].chosen_service,
            "v1beta1.DRAPlugin");
  auto answers = kubelet_->PrepareClaims(kDriver, {{"demo", "uid-a", "a"}});
  ASSERT_TRUE(answers.ok()) << answers.status();
  EXPECT_EQ(plugin->calls()[0].version, "v1beta1");
  EXPECT_EQ(answers->at("uid-a").devices.at(0).share_id, std::nullopt);
  EXPECT_FALSE(kubelet_->View().plugins[0].serves_health);
}

TEST_F(StandInDraKubeletTest, RefusesBadVersionListsAndTypesWithNotify) {
  StartKubelet();
  FakePluginConfig bad_versions = Config();
  bad_versions.versions = {"v2.DRAPlugin"};
  auto plugin = StartPlugin(bad_versions);
  ASSERT_TRUE(Registered(*plugin));
  EXPECT_FALSE(plugin->notifications()[0].first);
  EXPECT_NE(plugin->notifications()[0].second.find(
                "invalid supported gRPC versions of DRA driver plugin "
                "gcu.enflame.com"),
            std::string::npos)
      << plugin->notifications()[0].second;

  FakePluginConfig bad_type = Config();
  bad_type.registration_name = "csi-reg.sock";
  bad_type.type = "CSIPlugin";
  bad_type.plugin_dir = MakeTempDir();
  auto csi = StartPlugin(bad_type);
  ASSERT_TRUE(Eventually([&] { return !csi->notifications().empty(); }));
  EXPECT_FALSE(csi->notifications()[0].first);
  EXPECT_NE(csi->notifications()[0].second.find(
                "no handler registered for plugin type: CSIPlugin"),
            std::string::npos);
  EXPECT_TRUE(kubelet_->View().plugins.empty());
  EXPECT_EQ(
      kubelet_->PrepareClaims(kDriver, {{"demo", "u", "a"}}).status().message(),
      "DRA driver gcu.enflame.com is not registered");

  // The kubelet retries a refused plugin (0.5 s later on its clock) and
  // refuses it again.
  clock_.Advance(std::chrono::milliseconds(500));
  kubelet_->RunDueTimers();
  ASSERT_TRUE(Eventually([&] { return plugin->notifications().size() >= 2; }));
  EXPECT_FALSE(plugin->notifications()[1].first);
}

TEST_F(StandInDraKubeletTest, SlowGetInfoIsAFailureWithoutNotifyThenRetried) {
  StartKubelet();
  FakePluginConfig config = Config();
  config.block_get_info = true;
  auto plugin = StartPlugin(config);
  // The kubelet gives up after 1 s (real gRPC deadline) ...
  ASSERT_TRUE(
      Eventually([&] { return !kubelet_->View().registrations.empty(); }));
  RegistrationRecord record = kubelet_->View().registrations[0];
  EXPECT_FALSE(record.registered);
  EXPECT_FALSE(record.notified);
  EXPECT_NE(record.error.find("DEADLINE_EXCEEDED"), std::string::npos)
      << record.error;
  // ... and the plugin hears nothing about it.
  plugin->Release();
  EXPECT_TRUE(plugin->notifications().empty());
  // The retry (0.5 s on the kubelet's clock) succeeds.
  clock_.Advance(std::chrono::milliseconds(500));
  kubelet_->RunDueTimers();
  ASSERT_TRUE(Eventually([&] { return !plugin->notifications().empty(); }));
  EXPECT_TRUE(plugin->notifications()[0].first);
  EXPECT_EQ(plugin->get_info_calls(), 2);
}

TEST_F(StandInDraKubeletTest, DotFilesAreIgnoredAndExistingSocketsFound) {
  FakePluginConfig hidden = Config();
  hidden.registration_name = ".hidden-reg.sock";
  hidden.plugin_dir = MakeTempDir();
  auto dot = StartPlugin(hidden);
  FakePluginConfig early = Config();
  early.registration_name = "early-reg.sock";
  early.name = "early.example.com";
  early.plugin_dir = MakeTempDir();
  auto before = StartPlugin(early);  // Exists before the kubelet starts.
  StartKubelet();
  auto plugin = StartPlugin(Config());  // Found by inotify.
  ASSERT_TRUE(Eventually([&] { return !plugin->notifications().empty(); }));
  ASSERT_TRUE(Eventually([&] { return !before->notifications().empty(); }));
  EXPECT_EQ(dot->get_info_calls(), 0);
  for (const RegistrationRecord& r : kubelet_->View().registrations) {
    EXPECT_EQ(r.socket_path.find(".hidden"), std::string::npos);
  }
  EXPECT_EQ(kubelet_->View().plugins.size(), 2u);
}

// ---- DRA calls ----

TEST_F(StandInDraKubeletTest, AnswerLackingAClaimIsAnError) {
  StartKubelet();
  FakePluginConfig config = Config();
  config.omit_claims = {"uid-b"};
  auto plugin = StartPlugin(config);
  ASSERT_TRUE(Registered(*plugin));
  auto answers = kubelet_->PrepareClaims(
      kDriver, {{"demo", "uid-a", "a"}, {"demo", "uid-b", "b"}});
  EXPECT_EQ(answers.status().message(),
            "NodePrepareResources skipped 1 ResourceClaims");
}

json ClaimFor(const std::string& name, const std::string& uid,
              const std::string& pod_uid) {
  return {{"metadata", {{"name", name}, {"namespace", "demo"}, {"uid", uid}}},
          {"spec", json::object()},
          {"status",
           {{"reservedFor",
             {{{"resource", "pods"}, {"name", "p"}, {"uid", pod_uid}}}},
            {"allocation",
             {{"devices",
               {{"results",
                 {{{"request", "gcu"},
                   {"driver", kDriver},
                   {"pool", kNode},
                   {"device", "gcu-0"}}}}}}}}}}};
}

json PodUsing(const std::vector<std::string>& claims, const std::string& uid) {
  json pod = {
      {"metadata", {{"name", "p"}, {"namespace", "demo"}, {"uid", uid}}},
      {"spec",
       {{"resourceClaims", json::array()}, {"containers", json::array()}}}};
  json uses = json::array();
  for (const std::string& claim : claims) {
    pod["spec"]["resourceClaims"].push_back(
        {{"name", claim}, {"resourceClaimName", claim}});
    uses.push_back({{"name", claim}});
  }
  pod["spec"]["containers"].push_back(
      {{"name", "main"},
       {"env", {{{"name", "PATH"}, {"value", "/bin"}}}},
       {"resources", {{"claims", uses}}}});
  pod["spec"]["containers"].push_back({{"name", "sidecar"}});
  return pod;
}

TEST_F(StandInDraKubeletTest, RunPodPreparesInOneBatchAndAppliesCdi) {
  StartKubelet();
  auto plugin = StartPlugin(Config());
  ASSERT_TRUE(Registered(*plugin));
  // The fake API server assigns the claims' UIDs.
  auto c1 =
      kube_.Seed(kube::Resource::ResourceClaims(), ClaimFor("c1", "", "pod-1"));
  auto c2 =
      kube_.Seed(kube::Resource::ResourceClaims(), ClaimFor("c2", "", "pod-1"));
  ASSERT_TRUE(c1.ok() && c2.ok());
  const std::string uid1 = (*c1)["metadata"]["uid"];
  const std::string uid2 = (*c2)["metadata"]["uid"];
  json pod = PodUsing({"c1", "c2"}, "pod-1");
  auto run = kubelet_->RunPod(pod);
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(plugin->calls().size(), 1u);
  EXPECT_EQ(plugin->calls()[0].uids, (std::vector<std::string>{uid1, uid2}));
  ASSERT_EQ(run->containers.size(), 2u);
  const ContainerRun& main = run->containers[0];
  EXPECT_EQ(
      main.cdi_device_ids,
      (std::vector<std::string>{"k8s.gcu.enflame.com/gcu=" + uid1 + "-gcu-0",
                                "k8s.gcu.enflame.com/gcu=" + uid2 + "-gcu-0"}));
  EXPECT_EQ(main.view.Env("PATH"), "/bin");
  EXPECT_EQ(main.view.Env("CLAIM"), uid2);  // The later device's wins.
  EXPECT_EQ(main.view.Env("ENFLAME_VISIBLE_DEVICES"), "0");
  EXPECT_EQ(main.view.devices.size(), 1u);  // Same node, once.
  EXPECT_TRUE(run->containers[1].cdi_device_ids.empty());

  auto claims = kubelet_->Claims();
  ASSERT_EQ(claims.size(), 2u);
  EXPECT_TRUE(claims.at(uid1).prepared);
  EXPECT_EQ(claims.at(uid1).drivers.at(kDriver).at(0).share_id, "s-" + uid1);

  // Running it again prepares nothing new.
  ASSERT_TRUE(kubelet_->RunPod(pod).ok());
  EXPECT_EQ(plugin->calls().size(), 1u);

  ASSERT_TRUE(kubelet_->StopPod(pod).ok());
  ASSERT_EQ(plugin->calls().size(), 2u);
  EXPECT_EQ(plugin->calls()[1].method, "unprepare");
  EXPECT_EQ(plugin->calls()[1].uids, (std::vector<std::string>{uid1, uid2}));
  EXPECT_TRUE(kubelet_->Claims().empty());
}

TEST_F(StandInDraKubeletTest, ExtendedResourceClaimGoesToTheMappedContainer) {
  StartKubelet();
  FakePluginConfig config = Config();
  config.request_names = {"container-1-request-0"};
  auto plugin = StartPlugin(config);
  ASSERT_TRUE(Registered(*plugin));
  // KEP-5004: the scheduler's claim, named in the pod's status.
  auto claim = kube_.Seed(kube::Resource::ResourceClaims(),
                          ClaimFor("p-extended-resources-x", "", "pod-1"));
  ASSERT_TRUE(claim.ok());
  const std::string uid = (*claim)["metadata"]["uid"];
  json pod = PodUsing({}, "pod-1");
  pod["spec"]["containers"][1]["resources"] = {
      {"requests", {{"enflame.com/gcu-count", "1"}}}};
  pod["status"]["extendedResourceClaimStatus"] = {
      {"resourceClaimName", "p-extended-resources-x"},
      {"requestMappings",
       {{{"containerName", "sidecar"},
         {"resourceName", "enflame.com/gcu-count"},
         {"requestName", "container-1-request-0"}}}}};
  auto run = kubelet_->RunPod(pod);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(plugin->calls().at(0).uids, std::vector<std::string>{uid});
  EXPECT_TRUE(run->containers[0].cdi_device_ids.empty());
  EXPECT_EQ(
      run->containers[1].cdi_device_ids,
      std::vector<std::string>{"k8s.gcu.enflame.com/gcu=" + uid + "-gcu-0"});
  EXPECT_EQ(run->containers[1].view.Env("CLAIM"), uid);
}

TEST_F(StandInDraKubeletTest, RestartedKubeletUnpreparesFromItsCheckpoint) {
  StartKubelet();
  auto plugin = StartPlugin(Config());
  ASSERT_TRUE(Registered(*plugin));
  auto claim =
      kube_.Seed(kube::Resource::ResourceClaims(), ClaimFor("c1", "", "pod-1"));
  ASSERT_TRUE(claim.ok());
  const std::string uid = (*claim)["metadata"]["uid"];
  json pod = PodUsing({"c1"}, "pod-1");
  ASSERT_TRUE(kubelet_->RunPod(pod).ok());
  std::map<std::string, ClaimInfo> checkpoint = kubelet_->Claims();
  kubelet_->Stop();

  DraKubeletOptions options;
  options.node_name = kNode;
  options.registry_dir = registry_dir_;
  options.cdi_dirs = {cdi_dir_};
  options.clock = &clock_;
  options.kube = &kube_;
  options.checkpoint = checkpoint;
  kubelet_ = std::make_unique<StandInDraKubelet>(options);
  ASSERT_TRUE(kubelet_->Start().ok());  // Finds the plugin's socket again.
  ASSERT_TRUE(Eventually([&] { return Connected(plugin->endpoint()); }));
  EXPECT_TRUE(kubelet_->Claims().at(uid).prepared);
  ASSERT_TRUE(kubelet_->StopPod(pod).ok());
  ASSERT_EQ(plugin->calls().size(), 2u);
  EXPECT_EQ(plugin->calls()[1].method, "unprepare");
  EXPECT_EQ(plugin->calls()[1].uids, std::vector<std::string>{uid});
}

TEST_F(StandInDraKubeletTest, RunPodRefusesClaimsNotReservedOrUnallocated) {
  StartKubelet();
  auto plugin = StartPlugin(Config());
  ASSERT_TRUE(Registered(*plugin));
  json other = ClaimFor("c1", "uid-1", "someone-else");
  ASSERT_TRUE(kube_.Seed(kube::Resource::ResourceClaims(), other).ok());
  auto run = kubelet_->RunPod(PodUsing({"c1"}, "pod-1"));
  EXPECT_NE(run.status().message().find("is not allowed to use"),
            std::string::npos)
      << run.status();
  json unallocated = ClaimFor("c2", "uid-2", "pod-1");
  unallocated["status"].erase("allocation");
  ASSERT_TRUE(kube_.Seed(kube::Resource::ResourceClaims(), unallocated).ok());
  run = kubelet_->RunPod(PodUsing({"c2"}, "pod-1"));
  EXPECT_NE(run.status().message().find("not allocated"), std::string::npos);
  run = kubelet_->RunPod(PodUsing({"missing"}, "pod-1"));
  EXPECT_EQ(run.status().http_code(), 404);
  EXPECT_TRUE(plugin->calls().empty());
  EXPECT_TRUE(kubelet_->Claims().empty());
}

// ---- Health ----

TEST_F(StandInDraKubeletTest, HealthTimesOutToUnknownAndStreamReopens) {
  StartKubelet();
  auto plugin = StartPlugin(Config());
  ASSERT_TRUE(Registered(*plugin));
  plugin->SendHealth(
      {{"gcu-0", v1alpha1::HEALTHY}, {"gcu-1", v1alpha1::UNHEALTHY}});
  ASSERT_TRUE(Eventually([&] {
    return kubelet_->Health(kDriver, kNode, "gcu-0").health ==
           DeviceHealthStatus::kHealthy;
  }));
  EXPECT_EQ(kubelet_->Health(kDriver, kNode, "gcu-1").health,
            DeviceHealthStatus::kUnhealthy);
  clock_.Advance(seconds(30));
  EXPECT_EQ(kubelet_->Health(kDriver, kNode, "gcu-0").health,
            DeviceHealthStatus::kHealthy);
  clock_.Advance(seconds(1));
  EXPECT_EQ(kubelet_->Health(kDriver, kNode, "gcu-0").health,
            DeviceHealthStatus::kUnknown);

  // A fresh report with its own timeout.
  plugin->SendHealth({{"gcu-0", v1alpha1::HEALTHY}}, 5);
  ASSERT_TRUE(Eventually([&] {
    return kubelet_->Health(kDriver, kNode, "gcu-0").health ==
           DeviceHealthStatus::kHealthy;
  }));
  clock_.Advance(seconds(6));
  EXPECT_EQ(kubelet_->Health(kDriver, kNode, "gcu-0").health,
            DeviceHealthStatus::kUnknown);

  // The stream ends: reopened 5 s later on the kubelet's clock.
  plugin->EndHealthStream();
  ASSERT_TRUE(Eventually(
      [&] { return !kubelet_->View().plugins[0].health_streaming; }));
  EXPECT_EQ(kubelet_->View().plugins[0].health_streams, 1u);
  clock_.Advance(seconds(5));
  kubelet_->RunDueTimers();
  ASSERT_TRUE(Eventually(
      [&] { return kubelet_->View().plugins[0].health_streams == 2; }));
  plugin->SendHealth({{"gcu-0", v1alpha1::UNHEALTHY}});
  ASSERT_TRUE(Eventually([&] {
    return kubelet_->Health(kDriver, kNode, "gcu-0").health ==
           DeviceHealthStatus::kUnhealthy;
  }));
}

// ---- Wiping ----

TEST_F(StandInDraKubeletTest, WipesAllSlicesOfTheNodeAtStart) {
  ASSERT_TRUE(
      kube_.Seed(kube::Resource::ResourceSlices(), Slice("s1", kNode, kDriver))
          .ok());
  ASSERT_TRUE(kube_
                  .Seed(kube::Resource::ResourceSlices(),
                        Slice("s2", kNode, "other.example.com"))
                  .ok());
  ASSERT_TRUE(kube_
                  .Seed(kube::Resource::ResourceSlices(),
                        Slice("s3", "node-2", kDriver))
                  .ok());
  StartKubelet();
  ASSERT_TRUE(Eventually([&] { return !kubelet_->View().wipes.empty(); }));
  EXPECT_EQ(kubelet_->View().wipes[0], "spec.nodeName=node-1");
  EXPECT_EQ(SliceNames(), std::vector<std::string>{"s3"});
}

TEST_F(StandInDraKubeletTest, WipeAtStartWaitsForTheNode) {
  ASSERT_TRUE(kube_.Delete(kube::Resource::Nodes(), "", kNode, {}).ok());
  ASSERT_TRUE(
      kube_.Seed(kube::Resource::ResourceSlices(), Slice("s1", kNode, kDriver))
          .ok());
  StartKubelet();
  ASSERT_TRUE(Eventually([&] { return kubelet_->WipePending(""); }));
  ASSERT_TRUE(Eventually([&] {
    for (const std::string& a : kube_.actions()) {
      if (a.find("get nodes") != std::string::npos) return true;
    }
    return false;
  }));
  EXPECT_EQ(SliceNames(), std::vector<std::string>{"s1"});
  ASSERT_TRUE(
      kube_.Seed(kube::Resource::Nodes(), {{"metadata", {{"name", kNode}}}})
          .ok());
  clock_.Advance(seconds(1));  // The first retry.
  kubelet_->RunDueTimers();
  EXPECT_TRUE(SliceNames().empty());
}

TEST_F(StandInDraKubeletTest, WipesTheDriversSlices30sAfterTheServiceGoes) {
  StartKubelet();
  auto plugin = StartPlugin(Config());
  ASSERT_TRUE(Eventually([&] { return Connected(plugin->endpoint()); }));
  SeedSlicesAfterStartupWipe({Slice("mine", kNode, kDriver),
                              Slice("other-driver", kNode, "x.example.com"),
                              Slice("other-node", "node-2", kDriver)});
  EXPECT_FALSE(kubelet_->WipePending(kDriver));
  plugin->StopService();  // The registration socket stays.
  ASSERT_TRUE(Eventually([&] { return kubelet_->WipePending(kDriver); }));
  clock_.Advance(seconds(29));
  kubelet_->RunDueTimers();
  EXPECT_EQ(SliceNames().size(), 3u);
  clock_.Advance(seconds(1));
  kubelet_->RunDueTimers();
  EXPECT_EQ(SliceNames(),
            (std::vector<std::string>{"other-driver", "other-node"}));
  EXPECT_EQ(kubelet_->View().wipes.back(),
            "spec.nodeName=node-1,spec.driver=gcu.enflame.com");
}

TEST_F(StandInDraKubeletTest, NoWipeWhenThePluginComesBackInTime) {
  StartKubelet();
  auto plugin = StartPlugin(Config());
  ASSERT_TRUE(Eventually([&] { return Connected(plugin->endpoint()); }));
  SeedSlicesAfterStartupWipe({Slice("mine", kNode, kDriver)});
  // The plugin ends: its registration socket goes away.
  plugin->StopRegistration();
  plugin->StopService();
  ASSERT_TRUE(Eventually([&] { return kubelet_->WipePending(kDriver); }));
  ASSERT_TRUE(Eventually([&] { return kubelet_->View().plugins.empty(); }));
  clock_.Advance(seconds(20));
  kubelet_->RunDueTimers();
  // A new instance registers and connects within the 30 s.
  plugin = StartPlugin(Config());
  ASSERT_TRUE(Eventually([&] { return Connected(plugin->endpoint()); }));
  EXPECT_FALSE(kubelet_->WipePending(kDriver));
  clock_.Advance(seconds(60));
  kubelet_->RunDueTimers();
  EXPECT_EQ(SliceNames(), std::vector<std::string>{"mine"});
}

}  // namespace
}  // namespace gcushare::peers::dra_kubelet
