// End to end over real HTTP: the scheduler binary against the stand-in API
// server (in process) and a scripted extender (cpp-httplib) that records
// every request and answers as the test says.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "kube/testing/scripted_server.h"
#include "testing/eventually.h"
#include "testing/files.h"
#include "testing/subprocess.h"
#include "tests/peers/apiserver/json.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::scheduler {
namespace {

using apiserver::Json;
using apiserver::testing::TestServer;
using kube::testing::RecordedRequest;
using kube::testing::ScriptedServer;

constexpr char kPrefix[] = "/gcushare-scheduler";

std::string Binary() {
  return testing::RunfilePath("tests/peers/scheduler/scheduler");
}

std::string CaptureFile(const std::string& name) {
  return testing::ReadFileOrEmpty(
      testing::RunfilePath("tests/conformance/" + name));
}

std::vector<std::string> Keys(const Json& object) {
  std::vector<std::string> keys;
  if (!object.is_object()) return keys;
  for (auto it = object.begin(); it != object.end(); ++it) {
    keys.push_back(it.key());
  }
  return keys;
}

// The keys of `a` that `b` has too, in `a`'s order.
std::vector<std::string> CommonKeys(const Json& a, const Json& b) {
  std::vector<std::string> out;
  for (const std::string& key : Keys(a)) {
    if (b.contains(key)) out.push_back(key);
  }
  return out;
}

// Same keys in the same order where both objects have them, at the levels
// the captures show.
void ExpectSameShape(const Json& ours, const Json& captured) {
  const std::vector<std::vector<std::string>> paths = {
      {},
      {"metadata"},
      {"spec"},
      {"status"},
  };
  for (const auto& path : paths) {
    const Json* a = &ours;
    const Json* b = &captured;
    for (const std::string& key : path) {
      a = &(*a)[key];
      b = &(*b)[key];
    }
    EXPECT_EQ(CommonKeys(*a, *b), CommonKeys(*b, *a))
        << "at /" << (path.empty() ? "" : path[0]);
  }
  const Json& a = ours["spec"]["containers"][0];
  const Json& b = captured["spec"]["containers"][0];
  EXPECT_EQ(CommonKeys(a, b), CommonKeys(b, a)) << "container";
  EXPECT_EQ(CommonKeys(a["resources"], b["resources"]),
            CommonKeys(b["resources"], a["resources"]));
}

class SchedulerHttpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::MakeTempDir();
    extender_.Handle("POST", std::string(kPrefix) + "/filter",
                     [this](const httplib::Request& req,
                            httplib::Response& res) { Filter(req, res); });
    extender_.Handle("POST", std::string(kPrefix) + "/prioritize",
                     [this](const httplib::Request& req,
                            httplib::Response& res) { Prioritize(req, res); });
    extender_.Handle("POST", std::string(kPrefix) + "/bind",
                     [this](const httplib::Request& req,
                            httplib::Response& res) { Bind(req, res); });
    extender_.Start();
  }

  void AddNode(const std::string& name, bool sharing = true,
               const std::string& memory = "64") {
    Json labels = Json::object();
    if (sharing) labels["enflame.com/gcushare"] = "true";
    api_.CreateNode(name, labels);
    const Json status = {
        {"status",
         {{"capacity", {{"enflame.com/gcu-memory", memory}}},
          {"allocatable", {{"enflame.com/gcu-memory", memory}}}}}};
    auto r =
        api_.Patch("/api/v1/nodes/" + name + "/status",
                   apiserver::DumpJson(status), "application/merge-patch+json");
    ASSERT_EQ(r.status, 200) << r.body;
  }

  Json AddPod(const std::string& name, const std::string& memory,
              const Json& spec_extra = Json::object()) {
    Json container = {{"name", "main"},
                      {"image", "busybox:1.36"},
                      {"command", {"/bin/sleep", "3600"}}};
    if (!memory.empty()) {
      container["resources"] = {
          {"limits", {{"enflame.com/gcu-memory", memory}}},
          {"requests",
           {{"cpu", "100m"},
            {"enflame.com/gcu-memory", memory},
            {"memory", "64Mi"}}}};
    }
    Json pod = {{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"name", name}, {"labels", {{"app", "gcu"}}}}},
                {"spec", {{"containers", Json::array({container})}}}};
    for (auto it = spec_extra.begin(); it != spec_extra.end(); ++it) {
      pod["spec"][it.key()] = *it;
    }
    auto r =
        api_.Post("/api/v1/namespaces/default/pods", apiserver::DumpJson(pod));
    EXPECT_EQ(r.status, 201) << r.body;
    return r.json;
  }

  Json GetPod(const std::string& name) {
    return api_.Get("/api/v1/namespaces/default/pods/" + name).json;
  }

  std::vector<Json> EventsOf(const std::string& pod) {
    std::vector<Json> out;
    const Json list = api_.Get("/api/v1/namespaces/default/events").json;
    for (const Json& event : list["items"]) {
      if (event["involvedObject"]["name"] == pod) out.push_back(event);
    }
    return out;
  }

  std::string WriteConfig(bool cache_capable, bool bind,
                          const std::string& profile = "",
                          bool ignored_by_scheduler = true) {
    std::string text =
        "apiVersion: kubescheduler.config.k8s.io/v1\n"
        "kind: KubeSchedulerConfiguration\n";
    if (!profile.empty()) {
      text += "profiles:\n- schedulerName: " + profile + "\n";
    }
    text += "extenders:\n- urlPrefix: \"" + extender_.url() + kPrefix +
            "\"\n"
            "  filterVerb: filter\n"
            "  prioritizeVerb: prioritize\n";
    if (bind) text += "  bindVerb: bind\n";
    text +=
        "  weight: 2\n"
        "  enableHTTPS: false\n"
        "  nodeCacheCapable: " +
        std::string(cache_capable ? "true" : "false") +
        "\n"
        "  managedResources:\n"
        "  - name: enflame.com/gcu-memory\n"
        "    ignoredByScheduler: " +
        std::string(ignored_by_scheduler ? "true" : "false") + "\n";
    std::string path = dir_ + "/config.yaml";
    testing::WriteFileOrDie(path, text);
    return path;
  }

  std::vector<std::string> BaseArgs(const std::string& config) {
    return {Binary(),
            "--server=http://127.0.0.1:" + std::to_string(api_.port()),
            "--config=" + config, "--log-dir=" + dir_ + "/logs"};
  }

  testing::ProcessResult RunOnce(std::vector<std::string> args) {
    args.emplace_back("--once");
    auto result = testing::RunProcess(args);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : testing::ProcessResult{};
  }

  std::vector<RecordedRequest> Calls(const std::string& verb) {
    return extender_.RequestsTo("POST", std::string(kPrefix) + "/" + verb);
  }

  // Default answers: every node passes (in the form of the request), the
  // scores below, and bind performs the Binding like the real extender.
  void Filter(const httplib::Request& req, httplib::Response& res) {
    if (filter_reply_) {
      ScriptedServer::Json(res, 200, filter_reply_(req.body));
      return;
    }
    const Json args = Json::parse(req.body);
    Json reply = {{"NodeNames", args["NodeNames"]},
                  {"FailedNodes", Json::object()},
                  {"Error", ""}};
    if (args["NodeNames"].is_null()) {
      reply = {{"Nodes", args["Nodes"]},
               {"NodeNames", nullptr},
               {"FailedNodes", Json::object()},
               {"Error", ""}};
    }
    ScriptedServer::Json(res, 200, reply.dump());
  }

  void Prioritize(const httplib::Request& req, httplib::Response& res) {
    const Json args = Json::parse(req.body);
    Json names = args["NodeNames"];
    if (names.is_null()) {
      names = Json::array();
      for (const Json& node : args["Nodes"]["items"]) {
        names.push_back(node["metadata"]["name"]);
      }
    }
    Json list = Json::array();
    for (const Json& name : names) {
      list.push_back({{"Host", name},
                      {"Score", scores_.count(name.get<std::string>())
                                    ? scores_[name.get<std::string>()]
                                    : 0}});
    }
    ScriptedServer::Json(res, 200, list.dump());
  }

  void Bind(const httplib::Request& req, httplib::Response& res) {
    const Json args = Json::parse(req.body);
    const Json binding = {
        {"apiVersion", "v1"},
        {"kind", "Binding"},
        {"metadata", {{"name", args["PodName"]}, {"uid", args["PodUID"]}}},
        {"target",
         {{"apiVersion", "v1"}, {"kind", "Node"}, {"name", args["Node"]}}}};
    auto r = apiserver::testing::Request(
        api_.port(), "POST",
        "/api/v1/namespaces/" + args["PodNamespace"].get<std::string>() +
            "/pods/" + args["PodName"].get<std::string>() + "/binding",
        apiserver::DumpJson(binding));
    const std::string error =
        r.status == 201 ? "" : "binding failed: " + r.body;
    ScriptedServer::Json(res, 200, Json{{"Error", error}}.dump());
  }

  std::string dir_;
  TestServer api_;
  ScriptedServer extender_;
  std::map<std::string, int> scores_;
  std::function<std::string(const std::string& body)> filter_reply_;
};

TEST_F(SchedulerHttpTest, NodeCacheCapableFilterPrioritizeBind) {
  AddNode("gcu-node-0");
  AddNode("gcu-node-1");
  const Json pod = AddPod("gcu-pod-1", "4");
  scores_ = {{"gcu-node-0", 3}, {"gcu-node-1", 7}};
  const auto result = RunOnce(BaseArgs(WriteConfig(true, true)));
  EXPECT_EQ(result.exit_code, 0) << result.err;

  ASSERT_EQ(Calls("filter").size(), 1u);
  const RecordedRequest filter = Calls("filter")[0];
  EXPECT_EQ(filter.Header("Content-Type"), "application/json");
  EXPECT_EQ(filter.Header("User-Agent"), "Go-http-client/1.1");
  EXPECT_EQ(filter.Header("Accept-Encoding"), "gzip");
  EXPECT_EQ(filter.Header("Content-Length"),
            std::to_string(filter.body.size()));
  EXPECT_FALSE(filter.headers.count("Accept")) << filter.Header("Accept");
  EXPECT_FALSE(filter.headers.count("Expect"));

  const Json args = Json::parse(filter.body);
  EXPECT_EQ(Keys(args),
            (std::vector<std::string>{"Pod", "Nodes", "NodeNames"}));
  EXPECT_TRUE(args["Nodes"].is_null());
  EXPECT_EQ(args["NodeNames"], Json({"gcu-node-0", "gcu-node-1"}));
  EXPECT_FALSE(args["Pod"].contains("kind"));
  EXPECT_FALSE(args["Pod"].contains("apiVersion"));
  EXPECT_EQ(args["Pod"]["metadata"]["uid"], pod["metadata"]["uid"]);
  EXPECT_EQ(
      filter.body.rfind("{\"Pod\":{\"metadata\":{\"name\":\"gcu-pod-1\"", 0),
      0u);
  ExpectSameShape(args["Pod"],
                  Json::parse(CaptureFile(
                      "extender-ncc-true-filter-request-1node.raw"))["Pod"]);

  ASSERT_EQ(Calls("prioritize").size(), 1u);
  EXPECT_EQ(Calls("prioritize")[0].body, filter.body);  // Same ExtenderArgs.

  ASSERT_EQ(Calls("bind").size(), 1u);
  const RecordedRequest bind = Calls("bind")[0];
  EXPECT_EQ(bind.body,
            "{\"PodName\":\"gcu-pod-1\",\"PodNamespace\":\"default\","
            "\"PodUID\":\"" +
                pod["metadata"]["uid"].get<std::string>() +
                "\",\"Node\":\"gcu-node-1\"}");
  EXPECT_EQ(bind.Header("Content-Type"), "application/json");
  EXPECT_EQ(GetPod("gcu-pod-1")["spec"]["nodeName"], "gcu-node-1");
  const std::vector<Json> events = EventsOf("gcu-pod-1");
  ASSERT_EQ(events.size(), 1u)
      << api_.Get("/api/v1/namespaces/default/events").body;
  EXPECT_EQ(events[0]["reason"], "Scheduled");
  EXPECT_EQ(events[0]["message"],
            "Successfully assigned default/gcu-pod-1 to gcu-node-1");
}

TEST_F(SchedulerHttpTest, FullNodesWithoutBindVerb) {
  AddNode("gcu-node-0");
  AddNode("gcu-node-1");
  AddNode("vm", /*sharing=*/false);
  AddPod("gcu-ext-ok", "4",
         {{"schedulerName", "gcu-extender-scheduler"},
          {"nodeSelector", {{"enflame.com/gcushare", "true"}}}});
  AddPod("other-scheduler", "4");  // default-scheduler: not ours.
  scores_ = {{"gcu-node-0", 3}, {"gcu-node-1", 4}};
  const auto result =
      RunOnce(BaseArgs(WriteConfig(false, false, "gcu-extender-scheduler")));
  EXPECT_EQ(result.exit_code, 0) << result.err;

  ASSERT_EQ(Calls("filter").size(), 1u);
  const std::string body = Calls("filter")[0].body;
  const Json args = Json::parse(body);
  EXPECT_EQ(Keys(args),
            (std::vector<std::string>{"Pod", "Nodes", "NodeNames"}));
  EXPECT_TRUE(args["NodeNames"].is_null());
  EXPECT_EQ(Keys(args["Nodes"]),
            (std::vector<std::string>{"metadata", "items"}));
  EXPECT_EQ(args["Nodes"]["metadata"], Json::object());
  ASSERT_EQ(args["Nodes"]["items"].size(), 2u);  // The selector dropped vm.
  const Json& node = args["Nodes"]["items"][1];
  EXPECT_EQ(node["metadata"]["name"], "gcu-node-1");
  EXPECT_FALSE(node.contains("kind"));
  EXPECT_EQ(node["status"]["allocatable"]["enflame.com/gcu-memory"], "64");
  const Json captured =
      Json::parse(CaptureFile("extender-ncc-false-filter-2nodes.request.raw"));
  // (The stand-in API server leaves out the empty spec that the real one
  // writes, so only the keys both have are compared.)
  EXPECT_EQ(CommonKeys(node, captured["Nodes"]["items"][0]),
            CommonKeys(captured["Nodes"]["items"][0], node));
  EXPECT_EQ(CommonKeys(node["status"], captured["Nodes"]["items"][0]["status"]),
            (std::vector<std::string>{"capacity", "allocatable"}));
  ExpectSameShape(args["Pod"], captured["Pod"]);
  EXPECT_EQ(Calls("prioritize")[0].body, body);
  EXPECT_TRUE(Calls("bind").empty());

  // No bindVerb: the scheduler created the Binding itself.
  EXPECT_EQ(GetPod("gcu-ext-ok")["spec"]["nodeName"], "gcu-node-1");
  EXPECT_EQ(GetPod("other-scheduler")["spec"].value("nodeName", ""), "");
  const std::vector<Json> events = EventsOf("gcu-ext-ok");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]["reportingComponent"], "gcu-extender-scheduler");
}

TEST_F(SchedulerHttpTest, OnePassingNodeSkipsPrioritize) {
  AddNode("gcu-node-0");
  AddNode("gcu-node-1");
  AddPod("p", "4");
  filter_reply_ = [](const std::string&) {
    return R"({"NodeNames":["gcu-node-1"],)"
           R"("FailedNodes":{"gcu-node-0":"gcushare: insufficient GCU memory"},)"
           R"("Error":""})";
  };
  const auto result = RunOnce(BaseArgs(WriteConfig(true, true)));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(Calls("filter").size(), 1u);
  EXPECT_TRUE(Calls("prioritize").empty());
  ASSERT_EQ(Calls("bind").size(), 1u);
  EXPECT_EQ(GetPod("p")["spec"]["nodeName"], "gcu-node-1");
}

TEST_F(SchedulerHttpTest, NoFitRecordsFailedScheduling) {
  AddNode("gcu-node-0");
  AddNode("gcu-node-1");
  AddNode("vm", /*sharing=*/false);
  AddPod("gcu-ext-failall", "4",
         {{"nodeSelector", {{"enflame.com/gcushare", "true"}}}});
  filter_reply_ = [](const std::string&) {
    return R"({"Nodes":null,"NodeNames":null,"FailedNodes":{)"
           R"("gcu-node-0":"gcushare: insufficient GCU memory on gcu-node-0",)"
           R"("gcu-node-1":"gcushare: insufficient GCU memory on gcu-node-1"},)"
           R"("Error":""})";
  };
  const std::string config = WriteConfig(true, true);
  auto args = BaseArgs(config);
  args.emplace_back("--message-style=1.26");
  const auto result = RunOnce(args);
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_TRUE(Calls("prioritize").empty());
  EXPECT_TRUE(Calls("bind").empty());

  // Word for word what kube-scheduler 1.26.1 wrote in the same situation
  // (extender-ncc-false-filter-failall.outcome.yaml).
  const std::string want =
      "0/3 nodes are available: 1 gcushare: insufficient GCU memory on "
      "gcu-node-0, 1 gcushare: insufficient GCU memory on gcu-node-1, 1 "
      "node(s) didn't match Pod's node affinity/selector. preemption: 0/3 "
      "nodes are available: 1 Preemption is not helpful for scheduling, 2 No "
      "preemption victims found for incoming pod..";
  const std::vector<Json> events = EventsOf("gcu-ext-failall");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]["type"], "Warning");
  EXPECT_EQ(events[0]["reason"], "FailedScheduling");
  EXPECT_EQ(events[0]["action"], "Scheduling");
  EXPECT_EQ(events[0]["message"], want);
  const Json pod = GetPod("gcu-ext-failall");
  EXPECT_EQ(pod["spec"].value("nodeName", ""), "");
  const Json& conditions = pod["status"]["conditions"];
  ASSERT_EQ(conditions.size(), 1u);
  EXPECT_EQ(conditions[0]["type"], "PodScheduled");
  EXPECT_EQ(conditions[0]["status"], "False");
  EXPECT_EQ(conditions[0]["reason"], "Unschedulable");
  EXPECT_EQ(conditions[0]["message"], want);

  // Today's kube-scheduler words it differently.
  const auto current = RunOnce(BaseArgs(config));
  EXPECT_EQ(current.exit_code, 1);
  EXPECT_EQ(GetPod("gcu-ext-failall")["status"]["conditions"][0]["message"],
            "0/3 nodes are available: 1 gcushare: insufficient GCU memory on "
            "gcu-node-0, 1 gcushare: insufficient GCU memory on gcu-node-1, 1 "
            "node(s) didn't match Pod's node affinity/selector. no new claims "
            "to deallocate, preemption: 0/3 nodes are available: 1 Preemption "
            "is not helpful for scheduling, 2 No preemption victims found for "
            "incoming pod.");
}

TEST_F(SchedulerHttpTest, FilterErrorIsASchedulerError) {
  AddNode("gcu-node-0");
  AddPod("gcu-ext-error", "4");
  filter_reply_ = [](const std::string&) {
    return R"({"Nodes":null,"NodeNames":null,"FailedNodes":null,)"
           R"("Error":"gcushare: simulated extender filter error"})";
  };
  const auto result = RunOnce(BaseArgs(WriteConfig(true, true)));
  EXPECT_EQ(result.exit_code, 1);
  const Json condition = GetPod("gcu-ext-error")["status"]["conditions"][0];
  EXPECT_EQ(condition["reason"], "SchedulerError");
  EXPECT_EQ(condition["message"], "gcushare: simulated extender filter error");
  EXPECT_EQ(EventsOf("gcu-ext-error").at(0)["message"],
            "gcushare: simulated extender filter error");
}

TEST_F(SchedulerHttpTest, PodsWithoutManagedResourcesAreBoundDirectly) {
  AddNode("gcu-node-0");
  AddPod("plain", "");
  const auto result = RunOnce(BaseArgs(WriteConfig(true, true)));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(extender_.requests().empty());
  EXPECT_EQ(GetPod("plain")["spec"]["nodeName"], "gcu-node-0");
}

TEST_F(SchedulerHttpTest, InTreeFitUsesBoundPods) {
  AddNode("gcu-node-0", true, "8");
  AddPod("a", "6");
  AddPod("b", "6");
  // ignoredByScheduler false: the scheduler's own fit check applies.
  const auto result = RunOnce(BaseArgs(WriteConfig(true, true, "", false)));
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(Calls("filter").size(), 1u);  // Only for the first pod.
  EXPECT_EQ(GetPod("a")["spec"]["nodeName"], "gcu-node-0");
  EXPECT_EQ(GetPod("b")["status"]["conditions"][0]["message"],
            "0/1 nodes are available: 1 Insufficient enflame.com/gcu-memory. "
            "no new claims to deallocate, preemption: 0/1 nodes are "
            "available: 1 No preemption victims found for incoming pod.");
}

using gcushare::testing::Eventually;

TEST_F(SchedulerHttpTest, ContinuousModeSchedulesPodsAsTheyAppear) {
  AddNode("gcu-node-0", true, "4");
  testing::ChildProcess scheduler;
  ASSERT_TRUE(
      scheduler.Start(BaseArgs(WriteConfig(true, true, "", false))).ok());
  ASSERT_TRUE(scheduler.WaitForOutput("ready", std::chrono::seconds(30)).ok())
      << scheduler.output();

  AddPod("first", "4");
  EXPECT_TRUE(Eventually([&] {
    return GetPod("first")["spec"].value("nodeName", "") == "gcu-node-0";
  }));
  // No room left: the second pod fails and waits ...
  AddPod("second", "4");
  EXPECT_TRUE(Eventually([&] {
    Json pod = GetPod("second");
    return pod["status"].contains("conditions") &&
           pod["status"]["conditions"][0]["reason"] == "Unschedulable";
  }));
  // ... until a node with room appears.
  AddNode("gcu-node-1", true, "4");
  EXPECT_TRUE(Eventually([&] {
    return GetPod("second")["spec"].value("nodeName", "") == "gcu-node-1";
  })) << scheduler.output();

  ASSERT_TRUE(scheduler.Signal(SIGTERM).ok());
  auto exit = scheduler.Wait();
  ASSERT_TRUE(exit.ok());
  EXPECT_EQ(exit->exit_code, 0) << scheduler.output();
}

TEST(SchedulerBinaryTest, HelpVersionAndBadConfig) {
  auto help = testing::RunProcess({Binary(), "--help"});
  ASSERT_TRUE(help.ok());
  EXPECT_EQ(help->exit_code, 0);
  for (const char* flag :
       {"--kubeconfig", "--server", "--config", "--scheduler-name", "--once",
        "--log-dir", "--seccomp"}) {
    EXPECT_NE(help->out.find(flag), std::string::npos) << flag;
  }
  auto version = testing::RunProcess({Binary(), "--version"});
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(version->exit_code, 0);
  EXPECT_NE(version->out.find("gcushare-test-scheduler"), std::string::npos);

  const std::string dir = testing::MakeTempDir();
  testing::WriteFileOrDie(dir + "/bad.yaml",
                          "apiVersion: kubescheduler.config.k8s.io/v1\n"
                          "kind: KubeSchedulerConfiguration\n"
                          "extenders:\n- urlPrefix: http://x\n"
                          "  prioritizeVerb: p\n");
  auto bad = testing::RunProcess({Binary(), "--once",
                                  "--log-dir=", "--server=http://127.0.0.1:1",
                                  "--config=" + dir + "/bad.yaml"});
  ASSERT_TRUE(bad.ok());
  EXPECT_NE(bad->exit_code, 0);
  EXPECT_NE(bad->err.find("must have a positive weight"), std::string::npos)
      << bad->err;
}

}  // namespace
}  // namespace gcushare::scheduler
