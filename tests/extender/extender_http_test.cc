// gcushare-scheduler-extender as a real process, over HTTP, against the
// stand-in API server: the scenarios of the extender issue.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "extender/testing/objects.h"
#include "testing/files.h"
#include "tests/extender/extender_fixture.h"

namespace gcushare {
namespace {

using extender::testing::MemoryPod;
using extender::testing::Pod;
using extender::testing::SharingNode;
using nlohmann::json;

TEST_F(ExtenderHttpTest, VendorManualScenario) {
  CreateNode(SharingNode("n1", 8, 16));
  StartExtender();
  WaitForNode("n1");
  for (auto [name, size] : {std::pair{"p4", 4}, {"p8", 8}, {"p12", 12}}) {
    json pod = CreatePod(MemoryPod(name, size));
    json filtered = Filter(pod, {"n1"});
    ASSERT_EQ(filtered["NodeNames"], json::array({"n1"})) << filtered;
    ASSERT_EQ(Bind(pod, "n1"), "");
    EXPECT_EQ(GetPod(name)["spec"]["nodeName"], "n1");
  }
  EXPECT_EQ(Annotation("p4", "enflame.com/gcu-device-id"), "0");
  EXPECT_EQ(Annotation("p8", "enflame.com/gcu-device-id"), "0");
  EXPECT_NE(Annotation("p12", "enflame.com/gcu-device-id"), "0");
  EXPECT_EQ(Annotation("p12", "enflame.com/gcu-device-memory"), "16");
  EXPECT_EQ(Annotation("p12", "enflame.com/gcu-device-memory-request"), "12");
  EXPECT_EQ(Annotation("p12", "enflame.com/gcu-device-assigned"), "false");

  json big = CreatePod(MemoryPod("p20", 20));
  json filtered = Filter(big, {"n1"});
  EXPECT_EQ(filtered["NodeNames"], json::array());
  EXPECT_NE(filtered.dump().find("insufficient GCU Memory in one gcu device: "
                                 "pod requests 20 units"),
            std::string::npos)
      << filtered;

  json view = Inspect("n1");
  EXPECT_EQ(view["usedGCU"], 24);
  EXPECT_EQ(view["totalGCU"], 128);
  EXPECT_EQ(view["availableGCU"], 104);
  EXPECT_EQ(view["devices"][0]["usedGCU"], 12);
  ASSERT_EQ(view["devices"][0]["pods"].size(), 2u);
  for (const char* key :
       {"name", "namespace", "uid", "createTime", "usedGCU"}) {
    EXPECT_TRUE(view["devices"][0]["pods"][0].contains(key)) << key;
  }
  auto all = extender_.Get("/inspect");
  ASSERT_EQ(all.status, 200);
  json nodes = json::parse(all.body)["nodes"];
  ASSERT_TRUE(nodes.is_array()) << all.body;
  ASSERT_EQ(nodes.size(), 1u) << all.body;
  EXPECT_EQ(nodes[0]["devices"][0]["id"], 0) << all.body;
  auto unknown = extender_.Get("/inspect/unknown");
  EXPECT_EQ(unknown.status, 404);
  json error = json::parse(unknown.body, nullptr, false);
  ASSERT_TRUE(error.is_object()) << unknown.body;
  EXPECT_NE(error.value("error", "").find("unknown"), std::string::npos)
      << unknown.body;

  // kubectl describe shows why the pod landed where it did.
  auto events = api_.Get("/api/v1/namespaces/default/events");
  EXPECT_NE(events.body.find("GCUAssigned"), std::string::npos);

  // Metrics: latency histograms per verb and per-card usage.
  auto metrics = extender_.Get("/metrics");
  ASSERT_EQ(metrics.status, 200);
  EXPECT_NE(
      metrics.body.find("gcushare_extender_request_duration_seconds_count{verb="
                        "\"bind\"} 3"),
      std::string::npos)
      << metrics.body;
  // The handlers' CPU, summed by verb (what a bind cost the server).
  const std::string cpu_sample =
      "gcushare_extender_request_cpu_seconds_total{verb=\"bind\"} ";
  const size_t cpu_at = metrics.body.find(cpu_sample);
  ASSERT_NE(cpu_at, std::string::npos) << metrics.body;
  EXPECT_GT(std::stod(metrics.body.substr(cpu_at + cpu_sample.size())), 0)
      << metrics.body;
  EXPECT_NE(metrics.body.find("gcushare_card_memory_used_units{node=\"n1\","
                              "card=\"0\",unit=\"1\"} 12"),
            std::string::npos)
      << metrics.body;
  EXPECT_EQ(extender_.Get("/version").status, 200);
  auto code = extender_.Stop();
  ASSERT_TRUE(code.ok());
  EXPECT_EQ(*code, 0) << extender_.output();
}

TEST_F(ExtenderHttpTest, MultiContainerUnitTenthAndWholeCards) {
  CreateNode(SharingNode("n1", 2, 160, "0.1"));
  StartExtender();
  WaitForNode("n1");
  json multi =
      CreatePod(Pod("default", "multi", "", {{"a", 40, 0}, {"b", 20, 0}}));
  ASSERT_EQ(Bind(multi, "n1"), "");
  std::string card = Annotation("multi", "enflame.com/gcu-device-id");
  EXPECT_EQ(Annotation("multi", "enflame.com/gcu-device-memory-request"), "60");
  EXPECT_EQ(Annotation("multi", "enflame.com/gcu-device-memory"), "160");
  EXPECT_EQ(
      json::parse(Annotation("multi", "enflame.com/gcu-container-devices")),
      json::parse("{\"a\":[" + card + "],\"b\":[" + card + "]}"));

  json whole = CreatePod(Pod("default", "whole", "", {{"main", 0, 1}}));
  ASSERT_EQ(Bind(whole, "n1"), "");
  std::string whole_card = Annotation("whole", "enflame.com/gcu-device-id");
  EXPECT_NE(whole_card, card);
  // 100 more units fit only beside "multi" (160 - 60), never on the whole
  // card.
  json more = CreatePod(MemoryPod("more", 100));
  ASSERT_EQ(Bind(more, "n1"), "");
  EXPECT_EQ(Annotation("more", "enflame.com/gcu-device-id"), card);
  json full = CreatePod(MemoryPod("full", 1));
  EXPECT_EQ(Filter(full, {"n1"})["FailedNodes"]["n1"],
            "insufficient GCU Memory in one gcu device");
  json second_whole = CreatePod(Pod("default", "w2", "", {{"main", 0, 1}}));
  EXPECT_NE(Bind(second_whole, "n1"), "");
  EXPECT_EQ(Annotation("w2", "enflame.com/gcu-device-id"), "");
}

TEST_F(ExtenderHttpTest, RestartKeepsInspectAndNeverDoubleAllocates) {
  CreateNode(SharingNode("n1", 2, 16));
  StartExtender();
  WaitForNode("n1");
  for (auto [name, size] : {std::pair{"a", 12}, {"b", 10}, {"c", 3}}) {
    ASSERT_EQ(Bind(CreatePod(MemoryPod(name, size)), "n1"), "");
  }
  json before = Inspect("n1");
  extender_.Kill();
  StartExtender();
  WaitForNode("n1");
  EXPECT_EQ(Inspect("n1"), before);
  // Card 0 has 4 left at most and card 1 at most 6 left: 8 fits nowhere.
  json late = CreatePod(MemoryPod("late", 8));
  EXPECT_NE(Bind(late, "n1"), "");
  EXPECT_EQ(Annotation("late", "enflame.com/gcu-device-id"), "");
}

TEST_F(ExtenderHttpTest, TwoHundredConcurrentBindsNeverOvercommit) {
  CreateNode(SharingNode("n1", 8, 16));
  StartExtender({"--http-threads=64"});
  WaitForNode("n1");
  std::vector<json> pods;
  pods.reserve(200);
  for (int i = 0; i < 200; ++i) {
    pods.push_back(CreatePod(MemoryPod("p" + std::to_string(i), 3)));
  }
  for (const json& pod : pods) Filter(pod, {"n1"});
  std::atomic<int> bound{0};
  std::vector<std::thread> threads;
  threads.reserve(pods.size());
  for (const json& pod : pods) {
    threads.emplace_back([&, pod] {
      json args = {{"PodName", pod["metadata"]["name"]},
                   {"PodNamespace", "default"},
                   {"PodUID", pod["metadata"]["uid"]},
                   {"Node", "n1"}};
      auto r = extender_.Post("/bind", args.dump());
      if (r.status == 200 && json::parse(r.body)["Error"] == "") ++bound;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(bound.load(), 40);  // 5 pods of 3 units per 16-unit card.
  std::map<std::string, int> per_card;
  for (int i = 0; i < 200; ++i) {
    std::string card =
        Annotation("p" + std::to_string(i), "enflame.com/gcu-device-id");
    if (!card.empty()) per_card[card] += 3;
  }
  EXPECT_EQ(per_card.size(), 8u);
  for (const auto& [card, used] : per_card) {
    EXPECT_LE(used, 16) << "card " << card;
  }
}

TEST_F(ExtenderHttpTest, BadBodiesGet400AndChangeNothing) {
  CreateNode(SharingNode("n1", 1, 16));
  StartExtender();
  WaitForNode("n1");
  json pod = CreatePod(MemoryPod("a", 4));
  std::string valid = json{
      {"PodName", "a"},
      {"PodNamespace", "default"},
      {"Node", "n1"}}.dump();
  std::string oversized = "{\"Pod\":\"" + std::string(65u << 20, 'x') + "\"}";
  for (const char* verb : {"/filter", "/prioritize", "/bind"}) {
    for (const std::string& body :
         {std::string("{"), std::string("not json"),
          valid.substr(0, valid.size() / 2), oversized}) {
      auto r = extender_.Post(verb, body);
      // Oversized: refused from its Content-Length, before it is read.
      EXPECT_EQ(r.status, body == oversized ? 413 : 400)
          << verb << " " << body.substr(0, 40);
      EXPECT_FALSE(r.body.empty());
    }
  }
  EXPECT_EQ(Annotation("a", "enflame.com/gcu-device-id"), "");
  EXPECT_EQ(Inspect("n1")["usedGCU"], 0);
}

TEST_F(ExtenderHttpTest, FullNodeObjectsWhenNotNodeCacheCapable) {
  json node = SharingNode("n1", 1, 16);
  CreateNode(node);
  CreateNode(extender::testing::PlainNode("plain"));
  StartExtender();
  WaitForNode("n1");
  json pod = CreatePod(MemoryPod("a", 4));
  json args = {{"Pod", pod},
               {"Nodes",
                {{"metadata", json::object()},
                 {"items", {node, extender::testing::PlainNode("plain")}}}},
               {"NodeNames", nullptr}};
  auto r = extender_.Post("/filter", args.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  json result = json::parse(r.body);
  ASSERT_EQ(result["Nodes"]["items"].size(), 1u) << result;
  EXPECT_EQ(result["Nodes"]["items"][0]["metadata"]["name"], "n1");
  EXPECT_TRUE(result["FailedAndUnresolvableNodes"].contains("plain"));
}

// A bind retried to another node after the first one succeeded (as
// kube-scheduler does when its httpTimeout fires first) changes nothing:
// the pod keeps its card and stays counted.
TEST_F(ExtenderHttpTest, RetriedBindToAnotherNodeChangesNothing) {
  CreateNode(SharingNode("n1", 1, 16));
  CreateNode(SharingNode("n2", 1, 16));
  StartExtender();
  WaitForNode("n1");
  WaitForNode("n2");
  json pod = CreatePod(MemoryPod("a", 6));
  ASSERT_EQ(Filter(pod, {"n1", "n2"})["NodeNames"].size(), 2u);
  ASSERT_EQ(BindOnly(pod, "n1"), "");
  std::string error = BindOnly(pod, "n2");
  EXPECT_NE(error.find("already bound to node n1"), std::string::npos) << error;
  EXPECT_EQ(GetPod("a")["spec"]["nodeName"], "n1");
  EXPECT_EQ(Annotation("a", "enflame.com/gcu-device-id"), "0");
  EXPECT_EQ(Annotation("a", "enflame.com/gcu-device-memory-request"), "6");
  EXPECT_EQ(Inspect("n1")["usedGCU"], 6);
  EXPECT_EQ(Inspect("n2")["usedGCU"], 0);
  // The same bind again (its reply lost) is a success that changes nothing.
  EXPECT_EQ(BindOnly(pod, "n1"), "");
  EXPECT_EQ(Inspect("n1")["usedGCU"], 6);
  // And the next pod cannot take the memory that "a" holds.
  json b = CreatePod(MemoryPod("b", 12));
  EXPECT_EQ(Filter(b, {"n1"})["NodeNames"], json::array());
}

// A Binding that committed but was answered 504 (or any error) is resolved
// by reading the pod back: bound where we asked means success, and nothing
// is undone.
TEST_F(ExtenderHttpTest, BindingCommittedButAnswered504IsSuccess) {
  CreateNode(SharingNode("n1", 1, 16));
  StartExtender();
  WaitForNode("n1");
  json pod = CreatePod(MemoryPod("a", 6));
  binding_answer_ = 504;
  EXPECT_EQ(Bind(pod, "n1"), "");
  binding_answer_ = 0;
  EXPECT_EQ(GetPod("a")["spec"]["nodeName"], "n1");
  EXPECT_EQ(Annotation("a", "enflame.com/gcu-device-id"), "0");
  EXPECT_EQ(Inspect("n1")["usedGCU"], 6);
  json b = CreatePod(MemoryPod("b", 12));
  EXPECT_EQ(Filter(b, {"n1"})["NodeNames"], json::array());
}

// /bind is not an open door: pods that ask for no GCU resource and pods
// this extender never filtered onto the node are refused, unchanged.
TEST_F(ExtenderHttpTest, BindRefusesNonGcuAndUnfilteredPods) {
  CreateNode(SharingNode("n1", 1, 16));
  StartExtender();
  WaitForNode("n1");
  json plain = CreatePod(Pod("default", "plain", "", {{"main", 0, 0}}));
  Filter(plain, {"n1"});
  std::string error = BindOnly(plain, "n1");
  EXPECT_NE(error.find("asks for no enflame.com/gcu-memory"), std::string::npos)
      << error;
  EXPECT_FALSE(GetPod("plain")["spec"].contains("nodeName"));

  json pod = CreatePod(MemoryPod("a", 4));
  error = BindOnly(pod, "n1");
  EXPECT_NE(error.find("was not filtered onto node n1"), std::string::npos)
      << error;
  EXPECT_FALSE(GetPod("a")["spec"].contains("nodeName"));
  EXPECT_EQ(Annotation("a", "enflame.com/gcu-device-id"), "");
  EXPECT_EQ(Inspect("n1")["usedGCU"], 0);
  // Filtered onto another node only: still refused for n1.
  CreateNode(SharingNode("n2", 1, 16));
  WaitForNode("n2");
  Filter(pod, {"n2"});
  EXPECT_NE(BindOnly(pod, "n1"), "");
  EXPECT_EQ(BindOnly(pod, "n2"), "");
  auto metrics = extender_.Get("/metrics");
  EXPECT_NE(metrics.body.find(
                "gcushare_extender_bind_failures_total{stage=\"refused\"} 3"),
            std::string::npos)
      << metrics.body;
}

// 400 KB of nested arrays used to end the process (stack overflow in the
// JSON parser); now it is a 400 naming the limit, and the extender goes on.
TEST_F(ExtenderHttpTest, DeeplyNestedBodyIs400AndTheExtenderGoesOn) {
  CreateNode(SharingNode("n1", 1, 16));
  StartExtender();
  WaitForNode("n1");
  const std::string nested =
      std::string(200000, '[') + std::string(200000, ']');
  for (const char* verb : {"/filter", "/prioritize", "/bind"}) {
    auto r = extender_.Post(
        verb, "{\"Pod\":{\"x\":" + nested + "},\"NodeNames\":[]}");
    EXPECT_EQ(r.status, 400) << verb;
    EXPECT_NE(r.body.find("nested deeper than 100 levels"), std::string::npos)
        << r.body;
  }
  json pod = CreatePod(MemoryPod("a", 4));
  EXPECT_EQ(Filter(pod, {"n1"})["NodeNames"], json::array({"n1"}));
}

// Clients that send a filter body one byte at a time cannot hold the
// workers: each is cut off (408) at the body deadline and a normal filter
// request is answered meanwhile. (Before, with every worker held by such a
// client, the normal request got no answer at all.)
TEST_F(ExtenderHttpTest, SlowClientsDoNotStarveFilter) {
  CreateNode(SharingNode("n1", 1, 16));
  StartExtender({"--http-threads=4", "--body-timeout=1", "--read-timeout=10"});
  WaitForNode("n1");
  json pod = CreatePod(MemoryPod("a", 4));
  constexpr int kSlow = 16;  // Four times the workers.
  std::atomic<bool> stop{false};
  std::atomic<int> cut_off{0};
  std::vector<std::thread> slow;
  slow.reserve(kSlow);
  for (int i = 0; i < kSlow; ++i) {
    slow.emplace_back([&] {
      int fd = ::socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_port = htons(extender_.port());
      addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return;
      }
      std::string head =
          "POST /gcushare-scheduler/filter HTTP/1.1\r\nHost: x\r\n"
          "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n";
      ::send(fd, head.data(), head.size(), MSG_NOSIGNAL);
      // One byte every 100 ms (the stimulus, not the verdict) until the
      // server answers or closes (or, without the fix, a bound after the
      // test is over).
      for (int sent = 0, after_stop = 0; sent < 100000 && after_stop < 300;
           ++sent) {
        if (stop) ++after_stop;
        if (::send(fd, "[", 1, MSG_NOSIGNAL) != 1) {
          ++cut_off;  // The server closed it (reset: unread bytes were left).
          break;
        }
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) > 0) {
          // A 408, or the connection closed or reset by the server (a
          // reset may discard the 408 before it is read): either way the
          // server let go of this client.
          ++cut_off;
          break;
        }
      }
      ::close(fd);
    });
  }
  // The normal request is answered while slow clients keep coming.
  json filtered = Filter(pod, {"n1"});
  EXPECT_EQ(filtered["NodeNames"], json::array({"n1"}));
  stop = true;
  for (auto& t : slow) t.join();
  // The server let go of every slow client in its turn.
  EXPECT_EQ(cut_off.load(), kSlow);
}

// Memory is counted from the pod spec, never from annotations a user can
// edit; an unreadable card list keeps the pod counted on every card.
TEST_F(ExtenderHttpTest, EditedAnnotationsCannotFreeMemory) {
  CreateNode(SharingNode("n1", 2, 16));
  StartExtender();
  WaitForNode("n1");
  json pod = CreatePod(MemoryPod("a", 4));
  ASSERT_EQ(Bind(pod, "n1"), "");
  ASSERT_EQ(Annotation("a", "enflame.com/gcu-device-id"), "0");
  auto edit = [&](const std::string& key, const std::string& value) {
    json patch = {{"metadata", {{"annotations", {{key, value}}}}}};
    auto r = api_.Patch("/api/v1/namespaces/default/pods/a", patch.dump(),
                        "application/merge-patch+json");
    ASSERT_EQ(r.status, 200) << r.body;
  };
  // Events reach the extender in order: once a marker pod created after an
  // edit shows in /inspect, the edit has been seen too.
  auto wait_for_marker = [&](const std::string& name) {
    json marker = extender::testing::Assigned(
        extender::testing::MemoryPod(name, 1), "n1", {1}, 16);
    CreatePod(marker);
    for (int i = 0; i < 1000; ++i) {
      if (extender_.Get("/inspect/n1").body.find("\"" + name + "\"") !=
          std::string::npos) {
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL() << name << " never reached /inspect";
  };
  edit("enflame.com/gcu-device-memory-request", "0");
  wait_for_marker("m1");
  json view = Inspect("n1");
  EXPECT_EQ(view["devices"][0]["usedGCU"], 4) << view;
  EXPECT_EQ(view["usedGCU"], 5) << view;
  // 16 units fit on neither card (card 0 still holds 4).
  json big = CreatePod(MemoryPod("big", 16));
  EXPECT_EQ(Filter(big, {"n1"})["NodeNames"], json::array());

  edit("enflame.com/gcu-device-id", "zero");
  wait_for_marker("m2");
  view = Inspect("n1");
  // Counted on both cards now: 4 + 4, plus the two markers.
  EXPECT_EQ(view["usedGCU"], 10) << view;
  std::string log =
      testing::ReadFileOrEmpty(dir_ + "/logs/gcushare-scheduler-extender.log");
  EXPECT_NE(log.find("counted on n1"), std::string::npos) << log;
  // And `kubectl describe pod` says so (posted in the background, once).
  std::string events;
  for (int i = 0; i < 1000; ++i) {
    events = api_.Get("/api/v1/namespaces/default/events").body;
    if (events.find("GCUAssignmentUnreadable") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_NE(events.find("GCUAssignmentUnreadable"), std::string::npos)
      << events;
}

}  // namespace
}  // namespace gcushare
