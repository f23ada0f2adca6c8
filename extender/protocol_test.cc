#include "extender/protocol.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare::extender {
namespace {

using ::gcushare::testing::ReadFileOrEmpty;
using ::gcushare::testing::RunfilePath;

std::string Capture(const std::string& name) {
  std::string text = ReadFileOrEmpty(RunfilePath("tests/conformance/" + name));
  EXPECT_FALSE(text.empty()) << name;
  return text;
}

TEST(ProtocolConformanceTest, FilterNodeCacheCapable) {
  auto args =
      ParseExtenderArgs(Capture("extender-ncc-true-filter-request-2nodes.raw"));
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->pod["metadata"]["name"], "gcu-pod-3");
  EXPECT_FALSE(args->nodes.has_value());
  ASSERT_TRUE(args->node_names.has_value());
  // kube-scheduler does not sort the names: keep its order.
  EXPECT_EQ(*args->node_names,
            (std::vector<std::string>{"gcu-node-1", "gcu-node-0"}));
}

TEST(ProtocolConformanceTest, FilterOneNodeAndPrioritize) {
  auto one =
      ParseExtenderArgs(Capture("extender-ncc-true-filter-request-1node.raw"));
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(one->CandidateNames(), std::vector<std::string>{"gcu-node-0"});
  auto prio = ParseExtenderArgs(
      Capture("extender-ncc-true-prioritize-request-2nodes.raw"));
  ASSERT_TRUE(prio.ok()) << prio.status();
  EXPECT_EQ(prio->pod["metadata"]["name"], "gcu-pod-2");
  EXPECT_EQ(prio->CandidateNames(),
            (std::vector<std::string>{"gcu-node-0", "gcu-node-1"}));
}

TEST(ProtocolConformanceTest, FilterFullNodes) {
  for (const char* name : {"extender-ncc-false-filter-2nodes.request.raw",
                           "extender-ncc-false-prioritize-2nodes.request.raw",
                           "extender-ncc-false-filter-failall.request.raw"}) {
    auto args = ParseExtenderArgs(Capture(name));
    ASSERT_TRUE(args.ok()) << name << ": " << args.status();
    ASSERT_TRUE(args->nodes.has_value()) << name;
    EXPECT_FALSE(args->node_names.has_value()) << name;
    EXPECT_EQ(args->nodes->size(), 2u) << name;
    auto names = args->CandidateNames();
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"gcu-node-0", "gcu-node-1"}));
  }
}

TEST(ProtocolConformanceTest, Bind) {
  auto args = ParseBindingArgs(Capture("extender-ncc-true-bind-request.raw"));
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->pod_name, "gcu-pod-1");
  EXPECT_EQ(args->pod_namespace, "default");
  EXPECT_EQ(args->pod_uid, "0ff9e184-bf5f-411f-818c-a46f6ad61806");
  EXPECT_EQ(args->node, "gcu-node-0");
}

TEST(ProtocolTest, KeysMatchCaseInsensitively) {
  auto args = ParseExtenderArgs(
      R"({"pod":{"metadata":{"name":"p"}},"nodenames":["a"]})");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(*args->node_names, std::vector<std::string>{"a"});
  auto bind = ParseBindingArgs(
      R"({"podName":"p","podNamespace":"ns","podUID":"u","node":"n"})");
  ASSERT_TRUE(bind.ok());
  EXPECT_EQ(bind->pod_namespace, "ns");
  // The exact key wins over a case variant, as in Go.
  auto both = ParseBindingArgs(R"({"node":"x","Node":"y","PodName":"p"})");
  EXPECT_EQ(both->node, "y");
}

// NodeNames is read straight into strings; the key chosen is the one the
// parsed object's FindField chooses: the exact key, else the smallest case
// variant; of repeated keys the last; errors only from the chosen key.
TEST(ProtocolTest, NodeNamesKeyIsChosenAsInTheParsedObject) {
  const std::string pod = R"({"Pod":{"metadata":{"name":"p"}})";
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {R"(,"nodenames":["b"],"NodeNames":["a"]})", {"a"}},
      {R"(,"NodeNames":["a"],"nodenames":["b"]})", {"a"}},
      {R"(,"nodeNames":["x"],"NODENAMES":["y"]})", {"y"}},
      {R"(,"NODENAMES":["y"],"nodeNames":["x"]})", {"y"}},
      {R"(,"NodeNames":["a"],"NodeNames":["b","c"]})", {"b", "c"}},
      {R"(,"NodeNames":["n\u0031","\"q\""]})", {"n1", "\"q\""}},
      {R"(,"NodeNames":[]})", {}},
      {R"(,"nodenames":[1],"NodeNames":["a"]})", {"a"}},
      {R"(,"NodeNames":{"a":1},"Nodenames":7,"NodeNames":["z"]})", {"z"}},
  };
  for (const auto& [rest, names] : cases) {
    SCOPED_TRACE(rest);
    auto args = ParseExtenderArgs(pod + rest);
    ASSERT_TRUE(args.ok()) << args.status();
    ASSERT_TRUE(args->node_names.has_value());
    EXPECT_EQ(*args->node_names, names);
  }
  auto null_names =
      ParseExtenderArgs(pod + R"(,"NodeNames":null,"Nodes":{"items":[]}})");
  ASSERT_TRUE(null_names.ok()) << null_names.status();
  EXPECT_FALSE(null_names->node_names.has_value());
  auto later_bad =
      ParseExtenderArgs(pod + R"(,"NodeNames":["a"],"NodeNames":["a",2]})");
  ASSERT_FALSE(later_bad.ok());
  EXPECT_NE(later_bad.status().message().find("non-string"), std::string::npos);
}

TEST(ProtocolTest, ThePodKeepsOnlyWhatFilterReads) {
  // A pod as kube-scheduler sends it: of it, only what ComputePodRequest
  // and the pod's identity read is built; the exact "Pod" wins over a case
  // variant, as in Go.
  const std::string pod = R"({
    "metadata":{"name":"p","namespace":"ns","uid":"u","labels":{"a":"b"},
                "creationTimestamp":"t","annotations":{"x":"y"}},
    "spec":{"nodeName":"","schedulerName":"s","volumes":[{"name":"v"}],
      "initContainers":[{"name":"i","image":"m","restartPolicy":"Always",
        "resources":{"limits":{"enflame.com/gcu-memory":"2"}}}],
      "containers":[{"name":"c","image":"m","env":[{"name":"E"}],
        "resources":{"limits":{"enflame.com/gcu-memory":"3"}}}]},
    "status":{"phase":"Pending"}})";
  auto args = ParseExtenderArgs(R"({"pod":{"metadata":{"name":"other"}},)"
                                R"("Pod":)" +
                                pod + R"(,"NodeNames":["a"]})");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->pod, nlohmann::json::parse(R"({
    "metadata":{"name":"p","namespace":"ns","uid":"u",
                "creationTimestamp":"t"},
    "spec":{"nodeName":"",
      "initContainers":[{"name":"i","restartPolicy":"Always",
        "resources":{"limits":{"enflame.com/gcu-memory":"2"}}}],
      "containers":[{"name":"c",
        "resources":{"limits":{"enflame.com/gcu-memory":"3"}}}]}})"));
  EXPECT_EQ(args->TakeCandidateNames(), std::vector<std::string>{"a"});
  EXPECT_TRUE(args->node_names.has_value());  // Still the names form.
  // A case variant alone is the pod.
  auto folded = ParseExtenderArgs(R"({"POD":)" + pod + R"(,"nodeNames":[]})");
  ASSERT_TRUE(folded.ok()) << folded.status();
  EXPECT_EQ(folded->pod, args->pod);
}

TEST(ProtocolTest, BadBodiesAreClearErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "empty body"},
      {"{", "malformed JSON"},
      {"[]", "not a JSON object"},
      {R"({"NodeNames":["a"]})", "Pod missing"},
      {R"({"Pod":{}})", "neither Nodes nor NodeNames"},
      {R"({"Pod":{},"NodeNames":"a"})", "NodeNames is not a list"},
      {R"({"Pod":{},"NodeNames":[1]})", "non-string"},
      {R"({"Pod":{},"Nodes":{"items":3}})", "not a NodeList"},
  };
  for (const auto& [body, why] : cases) {
    auto args = ParseExtenderArgs(body);
    ASSERT_FALSE(args.ok()) << body;
    EXPECT_EQ(args.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(args.status().message().find(why), std::string::npos)
        << body << ": " << args.status();
  }
  // Truncated capture.
  std::string raw = Capture("extender-ncc-true-filter-request-2nodes.raw");
  EXPECT_FALSE(ParseExtenderArgs(raw.substr(0, raw.size() / 2)).ok());
  EXPECT_FALSE(ParseBindingArgs(R"({"PodName":"p"})").ok());
  EXPECT_FALSE(ParseBindingArgs(R"({"PodName":1,"Node":"n"})").ok());
}

TEST(ProtocolTest, EncodeFilterResultByNames) {
  ExtenderArgs args;
  args.node_names = std::vector<std::string>{"a", "b"};
  FilterResult result;
  result.passed = {"b"};
  result.failed = {{"a", "insufficient GCU Memory in one gcu device"}};
  EXPECT_EQ(EncodeFilterResult(args, result),
            R"({"Nodes":null,"NodeNames":["b"],"FailedNodes":{"a":)"
            R"("insufficient GCU Memory in one gcu device"},)"
            R"("FailedAndUnresolvableNodes":{},"Error":""})");
}

TEST(ProtocolTest, EncodeFilterResultByNodesKeepsObjects) {
  auto args = ParseExtenderArgs(
      Capture("extender-ncc-false-filter-2nodes.request.raw"));
  ASSERT_TRUE(args.ok());
  FilterResult result;
  result.passed = {"gcu-node-1"};
  result.failed = {{"gcu-node-0", "full"}};
  nlohmann::json out = nlohmann::json::parse(EncodeFilterResult(*args, result));
  ASSERT_EQ(out["Nodes"]["items"].size(), 1u);
  EXPECT_EQ(out["Nodes"]["items"][0]["metadata"]["name"], "gcu-node-1");
  // The whole object goes back, not just its name.
  EXPECT_TRUE(out["Nodes"]["items"][0].contains("status"));
  EXPECT_TRUE(out["NodeNames"].is_null());
}

// The answer written straight into a buffer is, byte for byte, what
// nlohmann's dump of the ordered object gives (escapes included), for both
// request forms.
TEST(ProtocolTest, EncodeFilterResultSameBytesAsADump) {
  FilterResult result;
  result.passed = {"b", "odd\"name", "tab\tname"};
  result.failed = {{"a", "insufficient \\ GCU\n"}, {"c", "full"}};
  result.failed_unresolvable = {{"d", "GCU binpack: node b holds \x01"}};
  result.error = "some \"error\"";
  auto dumped = [&result](bool by_names, const ExtenderArgs& args) {
    nlohmann::ordered_json out;
    if (by_names) {
      out["Nodes"] = nullptr;
      out["NodeNames"] = result.passed;
    } else {
      nlohmann::json items = nlohmann::json::array();
      std::vector<std::string> names = args.CandidateNames();
      for (size_t i = 0; i < names.size(); ++i) {
        if (std::find(result.passed.begin(), result.passed.end(), names[i]) !=
            result.passed.end()) {
          items.push_back((*args.nodes)[i]);
        }
      }
      out["Nodes"] = {{"metadata", nlohmann::json::object()}, {"items", items}};
      out["NodeNames"] = nullptr;
    }
    out["FailedNodes"] = result.failed;
    out["FailedAndUnresolvableNodes"] = result.failed_unresolvable;
    out["Error"] = result.error;
    return out.dump();
  };
  ExtenderArgs by_names;
  by_names.node_names = std::vector<std::string>{"a", "b"};
  EXPECT_EQ(EncodeFilterResult(by_names, result), dumped(true, by_names));
  auto by_nodes = ParseExtenderArgs(
      Capture("extender-ncc-false-filter-2nodes.request.raw"));
  ASSERT_TRUE(by_nodes.ok());
  result.passed = {"gcu-node-1"};
  EXPECT_EQ(EncodeFilterResult(*by_nodes, result), dumped(false, *by_nodes));
  result = FilterResult();
  EXPECT_EQ(EncodeFilterResult(by_names, result), dumped(true, by_names));
}

// EncodeFilterNames writes the failed nodes in the order given, each name
// as it was (names sharing their first 8 bytes, shorter than 8, with NUL,
// high bytes and bytes to escape), and the object is the one
// EncodeFilterResult writes for the same maps.
TEST(ProtocolTest, EncodeFilterNamesKeepsTheGivenOrder) {
  std::mt19937 rng(3);
  const std::vector<std::string> stems = {"node-",
                                          "node-1",
                                          "n",
                                          "",
                                          "node-12345678-",
                                          "\xc3\xa9t",
                                          std::string("a\0b", 3),
                                          "q\"\\"};
  // Equal reasons at different addresses, and one to escape.
  const std::vector<std::string> reasons = {"full", "other", "full",
                                            "a \"b\"\n"};
  for (int round = 0; round < 50; ++round) {
    std::vector<std::string> names;
    std::set<std::string> seen;
    while (names.size() < 60) {
      std::string name =
          stems[rng() % stems.size()] + std::to_string(rng() % 99);
      if (seen.insert(name).second) names.push_back(std::move(name));
    }
    std::vector<FailedNode> failed, unresolvable;
    nlohmann::ordered_json failed_json = nlohmann::ordered_json::object();
    nlohmann::ordered_json unresolvable_json = nlohmann::ordered_json::object();
    FilterResult result;
    for (const std::string& name : names) {
      const std::string& reason = reasons[rng() % reasons.size()];
      if (rng() % 3 == 0) {
        unresolvable.push_back({name, reason});
        unresolvable_json[name] = reason;
        result.failed_unresolvable.emplace(name, reason);
      } else {
        failed.push_back({name, reason});
        failed_json[name] = reason;
        result.failed.emplace(name, reason);
      }
    }
    const std::vector<std::string> passed = {"p", "q\"\x01"};
    result.passed = passed;
    nlohmann::ordered_json dump;
    dump["NodeNames"] = passed;
    dump["FailedNodes"] = failed_json;
    dump["FailedAndUnresolvableNodes"] = unresolvable_json;
    dump["Error"] = "";
    const std::string encoded = EncodeFilterNames(passed, failed, unresolvable);
    EXPECT_EQ(encoded, "{\"Nodes\":null," + dump.dump().substr(1));
    ExtenderArgs by_names;
    by_names.node_names = std::vector<std::string>{};
    EXPECT_EQ(nlohmann::json::parse(encoded),
              nlohmann::json::parse(EncodeFilterResult(by_names, result)));
  }
}

TEST(ProtocolTest, EncodePrioritizeBindAndError) {
  EXPECT_EQ(
      EncodeHostPriorityList({{"gcu-node-0", 3}, {"gcu-node-1", 10}}),
      R"([{"Host":"gcu-node-0","Score":3},{"Host":"gcu-node-1","Score":10}])");
  EXPECT_EQ(EncodeHostPriorityList({}), "[]");
  EXPECT_EQ(EncodeHostPriorityList({{"odd\"name", 0}}),
            R"([{"Host":"odd\"name","Score":0}])");
  EXPECT_EQ(EncodeHostPriorityList({{"ctl\x01\\", 1}}),
            R"([{"Host":"ctl\u0001\\","Score":1}])");
  EXPECT_EQ(EncodeBindingResult(""), R"({"Error":""})");
  EXPECT_EQ(
      EncodeFilterError("boom"),
      R"({"Nodes":null,"NodeNames":null,"FailedNodes":null,"Error":"boom"})");
}

}  // namespace
}  // namespace gcushare::extender
