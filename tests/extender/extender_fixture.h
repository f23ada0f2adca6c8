// Test support: gcushare-scheduler-extender as a real process over HTTP
// against an in-process stand-in API server with fault hooks, for the
// tests in this folder.
//
// Not for production code. Thread-safety: a fixture is driven from the test
// thread; the fault atomics may be set from any thread.
#ifndef GCUSHARE_TESTS_EXTENDER_EXTENDER_FIXTURE_H_
#define GCUSHARE_TESTS_EXTENDER_EXTENDER_FIXTURE_H_

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "testing/files.h"
#include "tests/extender/harness.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare {

class ExtenderHttpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::MakeTempDir();
    kubeconfig_ = testing::WriteKubeconfig(dir_, api_.port());
  }
  void StartExtender(const std::vector<std::string>& flags = {},
                     bool wait_synced = true) {
    Status started =
        extender_.Start(kubeconfig_, dir_ + "/logs", flags, wait_synced);
    ASSERT_TRUE(started.ok()) << started.message();
  }
  void CreateNode(const nlohmann::json& node) {
    auto r = api_.Post("/api/v1/nodes", node.dump());
    ASSERT_EQ(r.status, 201) << r.body;
  }
  nlohmann::json CreatePod(const nlohmann::json& pod) {
    auto r = api_.Post("/api/v1/namespaces/default/pods", pod.dump());
    EXPECT_EQ(r.status, 201) << r.body;
    return nlohmann::json::parse(r.body);
  }
  nlohmann::json GetPod(const std::string& name) {
    auto r = api_.Get("/api/v1/namespaces/default/pods/" + name);
    EXPECT_EQ(r.status, 200) << r.body;
    return nlohmann::json::parse(r.body);
  }
  std::string Annotation(const std::string& pod, const std::string& key) {
    nlohmann::json p = GetPod(pod);
    auto& a = p["metadata"]["annotations"];
    return a.is_object() && a.contains(key) ? a[key].get<std::string>() : "";
  }
  // Waits until the extender's cache holds `node`.
  void WaitForNode(const std::string& node) {
    for (int i = 0; i < 1000; ++i) {
      if (extender_.Get("/inspect/" + node).status == 200) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL() << "node " << node << " never reached the cache";
  }
  nlohmann::json Filter(const nlohmann::json& pod,
                        const std::vector<std::string>& names) {
    nlohmann::json args = {
        {"Pod", pod}, {"Nodes", nullptr}, {"NodeNames", names}};
    auto r = extender_.Post("/filter", args.dump());
    EXPECT_EQ(r.status, 200) << r.body;
    return nlohmann::json::parse(r.body);
  }
  // Filter (which the extender requires before bind, as kube-scheduler
  // always does), then bind.
  std::string Bind(const nlohmann::json& pod, const std::string& node) {
    Filter(pod, {node});
    return BindOnly(pod, node);
  }
  std::string BindOnly(const nlohmann::json& pod, const std::string& node) {
    nlohmann::json args = {{"PodName", pod["metadata"]["name"]},
                           {"PodNamespace", pod["metadata"]["namespace"]},
                           {"PodUID", pod["metadata"]["uid"]},
                           {"Node", node}};
    auto r = extender_.Post("/bind", args.dump());
    EXPECT_EQ(r.status, 200) << r.body;
    return nlohmann::json::parse(r.body)["Error"].get<std::string>();
  }
  nlohmann::json Inspect(const std::string& node) {
    auto r = extender_.Get("/inspect/" + node);
    EXPECT_EQ(r.status, 200) << r.body;
    // The one node of {"nodes":[...]}.
    nlohmann::json view = nlohmann::json::parse(r.body)["nodes"][0];
    // Whether a pod is still only assumed depends on timing: drop it.
    for (auto& device : view["devices"]) {
      for (auto& pod : device["pods"]) pod.erase("assumed");
    }
    return view;
  }

  static bool IsBinding(const std::string& method, const std::string& path) {
    const std::string suffix = "/binding";
    return method == "POST" && path.size() > suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) ==
               0;
  }
  static bool IsPodPatch(const std::string& method, const std::string& path) {
    return method == "PATCH" && path.find("/pods/") != std::string::npos;
  }

  // While set, the stand-in API server commits each Binding and then
  // answers this code (or apiserver::kBreakConnection), as kube-apiserver
  // does when its deadline passed after the write reached etcd.
  std::atomic<int> binding_answer_{0};
  // While set, the stand-in API server refuses each Binding with this code
  // before it is handled (nothing is written).
  std::atomic<int> binding_refusal_{0};
  // While set, PATCHes of pods are refused with this code (as an admission
  // webhook or a missing RBAC verb would), nothing written.
  std::atomic<int> pod_patch_refusal_{0};
  // While set, lists and watches of all pods are refused with this code:
  // the extender's cache cannot sync.
  std::atomic<int> pod_list_refusal_{0};
  apiserver::testing::TestServer api_{[this] {
    apiserver::ServerOptions options;
    options.fail_after_commit = [this](const std::string& method,
                                       const std::string& path) {
      return IsBinding(method, path) ? binding_answer_.load() : 0;
    };
    options.fail_before_handle = [this](const std::string& method,
                                        const std::string& path) {
      if (IsBinding(method, path)) return binding_refusal_.load();
      if (IsPodPatch(method, path)) return pod_patch_refusal_.load();
      if (method == "GET" && path == "/api/v1/pods") {
        return pod_list_refusal_.load();
      }
      return 0;
    };
    return options;
  }()};
  std::string dir_;
  std::string kubeconfig_;
  testing::ExtenderProcess extender_;
};

}  // namespace gcushare

#endif  // GCUSHARE_TESTS_EXTENDER_EXTENDER_FIXTURE_H_
