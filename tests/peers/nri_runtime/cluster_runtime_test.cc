// ClusterRuntime against the stand-in API server (in process, over real
// HTTP through CurlKubeClient) and the real gcushare-nri-plugin binary with
// stand-in /dev/gcu<N> nodes: assigned pods get their containers created
// with the plugin's devices and env and end Running; unassigned pods wait;
// plugin errors are printed once and retried; a restarted plugin is
// accepted and synchronized; a restarted runtime does not create Running
// pods again; an unreachable API server is logged once and survived.
#include "tests/peers/nri_runtime/cluster_runtime.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <sstream>
#include <thread>

#include "base/clock.h"
#include "base/mutex.h"
#include "kube/curl_kube_client.h"
#include "kube/json_fields.h"
#include "testing/files.h"
#include "testing/subprocess.h"
#include "tests/peers/apiserver/testing/test_server.h"
#include "tests/peers/nri_runtime/cluster_test_support.h"

namespace gcushare::nri_runtime {
namespace {

using ::gcushare::nri_runtime::testing::AddDevice;
using ::gcushare::nri_runtime::testing::DevRoot;
using ::gcushare::nri_runtime::testing::GcuPod;
using ::gcushare::nri_runtime::testing::OutputLines;
using ::gcushare::nri_runtime::testing::PluginArgv;
using ::gcushare::testing::ChildProcess;
using ::gcushare::testing::MakeTempDir;
using std::chrono::seconds;

constexpr char kNode[] = "gcu-node-1";

// Forwards to a real client; counts pod listings (a barrier: "the runtime
// polled N more times") and can play an unreachable API server.
class ProbeClient : public kube::KubeClient {
 public:
  explicit ProbeClient(kube::KubeClient* inner) : inner_(inner) {}

  void SetDown(bool down) { down_ = down; }
  int64_t lists() const {
    base::MutexLock lock(mu_);
    return lists_;
  }
  // Waits for `n` listings after the current one.
  bool WaitForMoreLists(int n) {
    base::MutexLock lock(mu_);
    int64_t target = lists_ + n;
    return cv_.WaitFor(lock, seconds(60), [this, target]() REQUIRES(mu_) {
      return lists_ >= target;
    });
  }

  StatusOr<nlohmann::json> Get(const kube::Resource& r, std::string_view ns,
                               std::string_view name) override {
    return inner_->Get(r, ns, name);
  }
  StatusOr<kube::ObjectList> List(const kube::Resource& r, std::string_view ns,
                                  const kube::ListOptions& o) override {
    StatusOr<kube::ObjectList> result =
        down_ ? StatusOr<kube::ObjectList>(UnavailableError(
                    "GET /api/v1/pods: Couldn't connect to server"))
              : inner_->List(r, ns, o);
    base::MutexLock lock(mu_);
    ++lists_;
    cv_.NotifyAll();
    return result;
  }
  Status Watch(const kube::Resource& r, std::string_view ns,
               const kube::WatchOptions& o,
               const kube::WatchCallback& cb) override {
    return inner_->Watch(r, ns, o, cb);
  }
  StatusOr<nlohmann::json> Create(const kube::Resource& r, std::string_view ns,
                                  const nlohmann::json& o) override {
    return inner_->Create(r, ns, o);
  }
  StatusOr<nlohmann::json> Update(const kube::Resource& r, std::string_view ns,
                                  const nlohmann::json& o) override {
    return inner_->Update(r, ns, o);
  }
  Status Delete(const kube::Resource& r, std::string_view ns,
                std::string_view name, const kube::DeleteOptions& o) override {
    return inner_->Delete(r, ns, name, o);
  }
  StatusOr<nlohmann::json> Patch(const kube::Resource& r, std::string_view ns,
                                 std::string_view name, kube::PatchType type,
                                 const nlohmann::json& patch,
                                 std::string_view subresource) override {
    return inner_->Patch(r, ns, name, type, patch, subresource);
  }
  Status CreateBinding(
      std::string_view ns, std::string_view pod, std::string_view uid,
      std::string_view node,
      const std::map<std::string, std::string>& annotations) override {
    return inner_->CreateBinding(ns, pod, uid, node, annotations);
  }
  StatusOr<nlohmann::json> CreateEvent(std::string_view ns,
                                       const kube::ObjectReference& involved,
                                       std::string_view type,
                                       std::string_view reason,
                                       std::string_view message,
                                       std::string_view component) override {
    return inner_->CreateEvent(ns, involved, type, reason, message, component);
  }

 private:
  kube::KubeClient* const inner_;
  std::atomic<bool> down_{false};
  mutable base::Mutex mu_;
  base::CondVar cv_;
  int64_t lists_ GUARDED_BY(mu_) = 0;
};

// One ClusterRuntime on a thread, with its own output.
class RunningRuntime {
 public:
  RunningRuntime(const std::string& socket, kube::KubeClient* client,
                 base::Clock* clock) {
    RuntimeOptions options;
    options.socket_path = socket;
    auto runtime = NriRuntime::Listen(options);
    EXPECT_TRUE(runtime.ok()) << runtime.status();
    runtime_ = std::move(*runtime);
    ClusterOptions cluster;
    cluster.node_name = kNode;
    cluster.poll_interval = std::chrono::milliseconds(50);
    cluster_ = std::make_unique<ClusterRuntime>(
        runtime_.get(), client, clock, cluster,
        [this](const std::string& line) { lines.Add(line); });
    thread_ = std::thread([this] { cluster_->Run(); });
  }
  ~RunningRuntime() {
    cluster_->Stop();
    thread_.join();
  }

  OutputLines lines;

 private:
  std::unique_ptr<NriRuntime> runtime_;
  std::unique_ptr<ClusterRuntime> cluster_;
  std::thread thread_;
};

class ClusterRuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    kube::ClientConfig config;
    config.server = "http://127.0.0.1:" + std::to_string(server_.port());
    kube::KubeClientOptions options;
    options.clock = &clock_;
    options.retry.max_attempts = 1;
    auto client = kube::CurlKubeClient::Create(config, options);
    ASSERT_TRUE(client.ok()) << client.status();
    client_ = std::move(*client);
    probe_ = std::make_unique<ProbeClient>(client_.get());
    dir_ = MakeTempDir();
    socket_ = dir_ + "/nri.sock";
    dev_root_ = DevRoot(4);
  }

  void CreatePod(const nlohmann::json& pod) {
    auto created = client_->Create(kube::Resource::Pods(), "default", pod);
    ASSERT_TRUE(created.ok()) << created.status();
  }
  nlohmann::json GetPod(const std::string& name) {
    auto pod = client_->Get(kube::Resource::Pods(), "default", name);
    EXPECT_TRUE(pod.ok()) << pod.status();
    return pod.ok() ? *pod : nlohmann::json();
  }
  std::string Phase(const std::string& name) {
    return kube::StringAt(GetPod(name), {"status", "phase"});
  }
  void StartPlugin(ChildProcess& plugin) {
    ASSERT_TRUE(plugin.Start(PluginArgv(socket_, dev_root_, dir_)).ok());
  }
  std::unique_ptr<RunningRuntime> StartRuntime() {
    return std::make_unique<RunningRuntime>(socket_, probe_.get(), &clock_);
  }

  apiserver::testing::TestServer server_;
  base::RealClock clock_;
  std::unique_ptr<kube::CurlKubeClient> client_;
  std::unique_ptr<ProbeClient> probe_;
  std::string dir_, socket_, dev_root_;
};

std::vector<std::string> DevicePaths(const nlohmann::json& line) {
  std::vector<std::string> paths;
  for (const auto& d : line["spec"]["linux"]["devices"]) {
    paths.push_back(d["path"]);
  }
  return paths;
}

bool HasEnv(const nlohmann::json& line, const std::string& entry) {
  for (const auto& e : line["spec"]["process"]["env"]) {
    if (e == entry) return true;
  }
  return false;
}

TEST_F(ClusterRuntimeTest, CreatesAssignedPodsAndMarksThemRunning) {
  CreatePod(GcuPod("gcu", kNode, 2, 4, true));
  CreatePod(GcuPod("plain", kNode, 0, 0, false));
  CreatePod(GcuPod("waiting", kNode, 1, 4, false));
  CreatePod(GcuPod("elsewhere", "other-node", 3, 4, true));
  ChildProcess plugin;
  StartPlugin(plugin);
  auto runtime = StartRuntime();
  OutputLines& out = runtime->lines;

  ASSERT_TRUE(out.WaitFor("running default/gcu"))
      << out.Joined() << plugin.output();
  ASSERT_TRUE(out.WaitFor("running default/plain")) << out.Joined();
  EXPECT_TRUE(
      out.WaitFor("plugin gcushare (index 10) registered, events "
                  "0x8"))
      << out.Joined();
  EXPECT_EQ(out.Count("synchronized 0 pods 0 containers"), 1) << out.Joined();

  auto gcu = out.WaitForJson("default/gcu", "main");
  ASSERT_TRUE(gcu.has_value());
  EXPECT_EQ(DevicePaths(*gcu), std::vector<std::string>{"/dev/gcu2"});
  EXPECT_TRUE(HasEnv(*gcu, "FOO=bar")) << gcu->dump();
  EXPECT_TRUE(HasEnv(*gcu, "GCUSHARE_MEMORY_LIMIT_MB=4096")) << gcu->dump();
  EXPECT_TRUE(HasEnv(*gcu, "HOSTNAME=gcu")) << gcu->dump();
  EXPECT_EQ((*gcu)["spec"]["process"]["args"],
            nlohmann::json({"/bin/sh", "-c", "sleep 3600"}));
  auto plain = out.WaitForJson("default/plain", "main");
  ASSERT_TRUE(plain.has_value());
  EXPECT_TRUE(DevicePaths(*plain).empty()) << plain->dump();

  nlohmann::json pod = GetPod("gcu");
  EXPECT_EQ(kube::StringAt(pod, {"status", "phase"}), "Running");
  EXPECT_EQ(kube::StringAt(pod, {"status", "qosClass"}), "BestEffort");
  ASSERT_EQ(pod["status"]["containerStatuses"].size(), 1u) << pod.dump();
  EXPECT_EQ(pod["status"]["containerStatuses"][0]["name"], "main");
  EXPECT_EQ(Phase("plain"), "Running");

  // Not assigned yet: it waits through several polls, then goes as soon as
  // the device plugin's mark arrives.
  ASSERT_TRUE(probe_->WaitForMoreLists(3));
  EXPECT_EQ(out.CountAbout("default/waiting"), 0) << out.Joined();
  EXPECT_EQ(Phase("waiting"), "Pending");
  auto marked = client_->Patch(
      kube::Resource::Pods(), "default", "waiting", kube::PatchType::kMerge,
      {{"metadata",
        {{"annotations", {{"enflame.com/gcu-device-assigned", "true"}}}}}},
      "");
  ASSERT_TRUE(marked.ok()) << marked.status();
  ASSERT_TRUE(out.WaitFor("running default/waiting")) << out.Joined();
  auto waiting = out.WaitForJson("default/waiting", "main");
  ASSERT_TRUE(waiting.has_value());
  EXPECT_EQ(DevicePaths(*waiting), std::vector<std::string>{"/dev/gcu1"});

  // Another node's pod is never touched; nothing is created twice.
  ASSERT_TRUE(probe_->WaitForMoreLists(3));
  EXPECT_EQ(out.CountAbout("default/elsewhere"), 0) << out.Joined();
  EXPECT_EQ(Phase("elsewhere"), "Pending");
  EXPECT_EQ(out.CountAbout("default/gcu"), 2) << out.Joined();
}

TEST_F(ClusterRuntimeTest, PluginErrorIsPrintedOnceAndRetried) {
  CreatePod(GcuPod("bad", kNode, 7, 4, true));  // No /dev/gcu7 yet.
  ChildProcess plugin;
  StartPlugin(plugin);
  auto runtime = StartRuntime();
  OutputLines& out = runtime->lines;
  auto error = out.WaitForJson("default/bad", "main");
  ASSERT_TRUE(error.has_value()) << out.Joined() << plugin.output();
  ASSERT_TRUE(error->contains("error")) << error->dump();
  EXPECT_NE((*error)["error"].get<std::string>().find("/dev/gcu7"),
            std::string::npos);
  EXPECT_FALSE(error->contains("spec"));

  // Later pods still go; the failing one is retried silently and stays
  // Pending.
  CreatePod(GcuPod("good", kNode, 0, 4, true));
  ASSERT_TRUE(out.WaitFor("running default/good")) << out.Joined();
  ASSERT_TRUE(probe_->WaitForMoreLists(3));
  EXPECT_EQ(out.CountAbout("default/bad"), 1) << out.Joined();
  EXPECT_EQ(Phase("bad"), "Pending");

  // The device node appears: the retry succeeds.
  AddDevice(dev_root_, 7);
  ASSERT_TRUE(out.WaitFor("running default/bad")) << out.Joined();
  EXPECT_EQ(out.CountAbout("default/bad"), 3) << out.Joined();
}

TEST_F(ClusterRuntimeTest, RestartedPluginIsAcceptedAndSynchronized) {
  CreatePod(GcuPod("first", kNode, 0, 4, true));
  auto runtime = StartRuntime();
  OutputLines& out = runtime->lines;
  {
    ChildProcess plugin;
    StartPlugin(plugin);
    ASSERT_TRUE(out.WaitFor("running default/first")) << out.Joined();
    ASSERT_TRUE(plugin.Signal(SIGKILL).ok());
    ASSERT_TRUE(plugin.Wait(seconds(10)).ok());
  }
  ASSERT_TRUE(out.WaitFor("plugin gcushare disconnected")) << out.Joined();

  // No plugin: the pod waits, it does not fail.
  CreatePod(GcuPod("second", kNode, 1, 4, true));
  ASSERT_TRUE(probe_->WaitForMoreLists(3));
  EXPECT_EQ(out.CountAbout("default/second"), 0) << out.Joined();
  EXPECT_EQ(Phase("second"), "Pending");

  ChildProcess again;
  StartPlugin(again);
  ASSERT_TRUE(out.WaitFor("running default/second"))
      << out.Joined() << again.output();
  EXPECT_EQ(out.Count("plugin gcushare (index 10) registered, events 0x8"), 2)
      << out.Joined();
  EXPECT_EQ(out.Count("synchronized 1 pods 1 containers"), 1) << out.Joined();
  auto second = out.WaitForJson("default/second", "main");
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(DevicePaths(*second), std::vector<std::string>{"/dev/gcu1"});
  EXPECT_EQ(out.CountAbout("default/first"), 2) << out.Joined();
}

TEST_F(ClusterRuntimeTest, RestartedRuntimeDoesNotRecreateRunningPods) {
  CreatePod(GcuPod("early", kNode, 0, 4, true));
  ChildProcess plugin;
  StartPlugin(plugin);
  {
    auto runtime = StartRuntime();
    ASSERT_TRUE(runtime->lines.WaitFor("running default/early"))
        << runtime->lines.Joined() << plugin.output();
  }
  // A new runtime on the same socket: the plugin reconnects by itself and
  // is synchronized with the Running pod, which is not created again.
  auto runtime = StartRuntime();
  OutputLines& out = runtime->lines;
  ASSERT_TRUE(out.WaitFor("synchronized 1 pods 1 containers"))
      << out.Joined() << plugin.output();
  CreatePod(GcuPod("late", kNode, 3, 4, true));
  ASSERT_TRUE(out.WaitFor("running default/late")) << out.Joined();
  EXPECT_EQ(out.CountAbout("default/early"), 0) << out.Joined();
  EXPECT_EQ(Phase("early"), "Running");
}

TEST_F(ClusterRuntimeTest, UnreachableApiServerIsLoggedOnceAndSurvived) {
  std::ostringstream log;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(log);
  spdlog::default_logger()->sinks().push_back(sink);
  probe_->SetDown(true);
  ChildProcess plugin;
  StartPlugin(plugin);
  {
    auto runtime = StartRuntime();
    OutputLines& out = runtime->lines;
    CreatePod(GcuPod("patient", kNode, 2, 4, true));
    ASSERT_TRUE(probe_->WaitForMoreLists(5));
    EXPECT_EQ(out.CountAbout("default/patient"), 0) << out.Joined();
    probe_->SetDown(false);
    ASSERT_TRUE(out.WaitFor("running default/patient")) << out.Joined();
    // A second outage while the plugin stays connected.
    probe_->SetDown(true);
    ASSERT_TRUE(probe_->WaitForMoreLists(3));
    probe_->SetDown(false);
    CreatePod(GcuPod("after", kNode, 3, 4, true));
    ASSERT_TRUE(out.WaitFor("running default/after")) << out.Joined();
  }
  spdlog::default_logger()->sinks().pop_back();
  std::string text = log.str();
  auto count = [&](const std::string& needle) {
    int n = 0;
    for (size_t at = text.find(needle); at != std::string::npos;
         at = text.find(needle, at + 1)) {
      ++n;
    }
    return n;
  };
  EXPECT_EQ(count("API server unavailable"), 2) << text;
  EXPECT_EQ(count("API server reachable again"), 2) << text;
  EXPECT_NE(text.find("Couldn't connect to server"), std::string::npos);
}

}  // namespace
}  // namespace gcushare::nri_runtime
