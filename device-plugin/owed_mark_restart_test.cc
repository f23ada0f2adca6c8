// The mark a restart lost, end to end: the stand-in kubelet calls Allocate
// over gRPC, the plugin answers but is killed before its mark reaches the
// stand-in API server; the next plugin marks the pod once its containers
// run (at start-up, or on its pod watch), and never marks a Pending pod
// that was not allocated.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "contract/names.h"
#include "device-plugin/testing/plugin_fixture.h"
#include "kube/kube_client.h"
#include "testing/eventually.h"

namespace gcushare::deviceplugin {
namespace {

using namespace std::chrono_literals;
using gcushare::testing::Eventually;
using testing::PluginFixture;

std::string Assigned(const nlohmann::json& pod) {
  return pod["metadata"]["annotations"].value(
      std::string(contract::kPodAssigned), "");
}

class OwedMarkRestartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(f_.StartPlugin().ok());
    ASSERT_TRUE(f_.WaitForDevices(128));
    // "owed" gets its card below; "waiting" is bound but kubelet has not
    // admitted it (no Allocate yet).
    f_.CreateBoundPod({.name = "owed", .card = 6, .assign_time_ns = 1});
    f_.CreateBoundPod(
        {.name = "waiting", .containers = {{"main", 2}}, .card = 5});
    ASSERT_TRUE(Eventually(
        [&] { return f_.plugin().pod_source()->Known().size() == 2; }));
  }

  // Allocate answers with owed's card while the API server is away, so the
  // mark can only be retried in the background; then the plugin is killed
  // (stopped) before the API server returns: the mark is lost.
  void AllocateAndLoseTheMark() {
    f_.StopApiServer();
    auto r = f_.Allocate(4);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->response.envs().at("ENFLAME_VISIBLE_DEVICES"), "6");
    f_.StopPlugin();
    f_.RestartApiServer();
    ASSERT_EQ(Assigned(f_.GetPod("owed")), "false");
  }

  // kubelet started the pod's container (pods/status, as kubelet writes it).
  void Start(const std::string& name) {
    nlohmann::json status = {
        {"status",
         {{"phase", "Running"},
          {"containerStatuses",
           {{{"name", "main"},
             {"image", "busybox:1"},
             {"imageID", ""},
             {"containerID", "containerd://" + name},
             {"ready", true},
             {"restartCount", 0},
             {"started", true},
             {"state",
              {{"running", {{"startedAt", "2026-11-28T00:00:00Z"}}}}}}}}}}};
    auto patched = f_.client().Patch(kube::Resource::Pods(), "default", name,
                                     kube::PatchType::kMerge, status, "status");
    ASSERT_TRUE(patched.ok()) << patched.status();
  }

  // The restarted plugin has seen every pod and finished what it queued.
  void RestartAndSettle() {
    ASSERT_TRUE(f_.StartPlugin().ok());
    ASSERT_TRUE(f_.plugin().pod_source()->WaitForSync(30s));
    ASSERT_TRUE(f_.plugin().assigned_marker()->WaitIdle(30s));
  }

  PluginFixture f_;
};

TEST_F(OwedMarkRestartTest, MarksAtStartUpAPodThatRuns) {
  AllocateAndLoseTheMark();
  Start("owed");
  RestartAndSettle();
  EXPECT_EQ(Assigned(f_.GetPod("owed")), "true");
  EXPECT_EQ(Assigned(f_.GetPod("waiting")), "false");
  // The card was handed out once: owed is no candidate for Allocate now.
  auto again = f_.Allocate(4);
  EXPECT_EQ(again.status().code(), StatusCode::kNotFound) << again.status();
}

TEST_F(OwedMarkRestartTest, MarksOnTheWatchAPodThatStartsAfterTheRestart) {
  AllocateAndLoseTheMark();
  RestartAndSettle();
  // Still Pending: its Allocate may not have happened, as far as the new
  // plugin can tell, so it is not marked.
  EXPECT_EQ(Assigned(f_.GetPod("owed")), "false");
  EXPECT_EQ(Assigned(f_.GetPod("waiting")), "false");

  Start("owed");
  EXPECT_TRUE(
      Eventually([&] { return Assigned(f_.GetPod("owed")) == "true"; }));
  ASSERT_TRUE(f_.plugin().assigned_marker()->WaitIdle(30s));
  EXPECT_EQ(Assigned(f_.GetPod("waiting")), "false");

  // The waiting pod is admitted later: the restarted plugin allocates and
  // marks it the ordinary way.
  auto r = f_.Allocate(2);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->response.envs().at("ENFLAME_VISIBLE_DEVICES"), "5");
  EXPECT_EQ(Assigned(f_.GetPod("waiting")), "true");
}

}  // namespace
}  // namespace gcushare::deviceplugin
