#include "config-manager/scheduler_config.h"

#include <gtest/gtest.h>

#include <string>

#include "config-manager/yaml_text.h"
#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare::config_manager {
namespace {

using testing::ReadFileOrEmpty;
using testing::RunfilePath;

constexpr char kUrl[] = "http://10.96.0.50:32766/gcushare-scheduler";

// Our contract entry alone (the plain-pod entry, on by default, has its
// own tests below).
ExtenderEntryOptions Options(const std::string& url = kUrl) {
  ExtenderEntryOptions options;
  options.url_prefix = url;
  options.rank_plain_pods = false;
  return options;
}

std::string Testdata(const std::string& name) {
  std::string text =
      ReadFileOrEmpty(RunfilePath("config-manager/testdata/" + name));
  EXPECT_FALSE(text.empty()) << name;
  return text;
}

// docs/contracts.md's entry: filter/prioritize/bind, nodeCacheCapable, both
// resources with ignoredByScheduler false.
void ExpectContractEntry(const YAML::Node& e, const std::string& url) {
  ASSERT_TRUE(e.IsMap());
  EXPECT_EQ(e["urlPrefix"].Scalar(), url);
  EXPECT_EQ(e["filterVerb"].Scalar(), "filter");
  EXPECT_EQ(e["prioritizeVerb"].Scalar(), "prioritize");
  EXPECT_EQ(e["bindVerb"].Scalar(), "bind");
  EXPECT_GT(e["weight"].as<int>(), 0);
  EXPECT_TRUE(e["nodeCacheCapable"].as<bool>());
  EXPECT_FALSE(e["ignorable"].as<bool>(true));
  ASSERT_EQ(e["managedResources"].size(), 2u);
  EXPECT_EQ(e["managedResources"][0]["name"].Scalar(),
            "enflame.com/gcu-memory");
  EXPECT_EQ(e["managedResources"][1]["name"].Scalar(), "enflame.com/gcu-count");
  for (const YAML::Node& r : e["managedResources"]) {
    EXPECT_FALSE(r["ignoredByScheduler"].as<bool>(true));
  }
}

TEST(SchedulerConfigTest, UrlFromHostAndPort) {
  EXPECT_EQ(ExtenderUrl("10.96.0.50", 32766), kUrl);
  EXPECT_EQ(ExtenderUrl("fd00::1", 32766),
            "http://[fd00::1]:32766/gcushare-scheduler");
}

TEST(SchedulerConfigTest, RecognisesOurEntry) {
  struct Case {
    const char* url;
    bool ours;
  };
  for (const Case& c :
       {Case{kUrl, true},
        Case{"http://gcushare-scheduler-extender.kube-system.svc:32766/"
             "gcushare-scheduler/",
             true},
        Case{"http://127.0.0.1:8888/other", false},
        Case{"http://x/gcushare-scheduler-old", false}, Case{"", false}}) {
    YAML::Node entry(YAML::NodeType::Map);
    entry["urlPrefix"] = c.url;
    EXPECT_EQ(IsOurEntry(entry), c.ours) << c.url;
  }
  EXPECT_FALSE(IsOurEntry(YAML::Node("scalar")));
}

TEST(SchedulerConfigTest, NewConfigPerApiVersion) {
  for (const char* api : {"kubescheduler.config.k8s.io/v1beta2",
                          "kubescheduler.config.k8s.io/v1beta3",
                          "kubescheduler.config.k8s.io/v1"}) {
    std::string text = NewSchedulerConfig(api, "/etc/kubernetes/scheduler.conf",
                                          false, Options());
    auto config = ParseYamlMap(text, "new");
    ASSERT_TRUE(config.ok()) << text;
    EXPECT_EQ((*config)["apiVersion"].Scalar(), api);
    EXPECT_EQ((*config)["kind"].Scalar(), "KubeSchedulerConfiguration");
    EXPECT_EQ((*config)["clientConnection"]["kubeconfig"].Scalar(),
              "/etc/kubernetes/scheduler.conf");
    EXPECT_FALSE((*config)["leaderElection"]["leaderElect"].as<bool>(true));
    ASSERT_EQ((*config)["extenders"].size(), 1u);
    ExpectContractEntry((*config)["extenders"][0], kUrl);
    EXPECT_TRUE(HasOurEntry(text));
  }
}

TEST(SchedulerConfigTest, AddKeepsOtherExtendersAndSettings) {
  std::string original = Testdata("scheduler-config-custom.yaml");
  EXPECT_FALSE(HasOurEntry(original));
  auto added = AddOurExtender(original, "custom.yaml", Options());
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  auto config = ParseYamlMap(*added, "added");
  ASSERT_TRUE(config.ok());
  EXPECT_EQ((*config)["apiVersion"].Scalar(),
            "kubescheduler.config.k8s.io/v1beta3");
  EXPECT_EQ((*config)["profiles"][0]["pluginConfig"][0]["args"]
                     ["scoringStrategy"]["type"]
                         .Scalar(),
            "MostAllocated");
  ASSERT_EQ((*config)["extenders"].size(), 2u);
  EXPECT_EQ((*config)["extenders"][0]["urlPrefix"].Scalar(),
            "http://127.0.0.1:8888/other");
  EXPECT_EQ((*config)["extenders"][0]["weight"].as<int>(), 2);
  ExpectContractEntry((*config)["extenders"][1], kUrl);

  // Adding again replaces our entry in place: nothing doubles.
  auto again = AddOurExtender(*added, "added", Options());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *added);
  auto moved = AddOurExtender(
      *added, "added", Options("http://10.96.9.9:32766/gcushare-scheduler"));
  ASSERT_TRUE(moved.ok());
  auto moved_config = ParseYamlMap(*moved, "moved");
  ASSERT_EQ((*moved_config)["extenders"].size(), 2u);
  ExpectContractEntry((*moved_config)["extenders"][1],
                      "http://10.96.9.9:32766/gcushare-scheduler");
}

TEST(SchedulerConfigTest, OneParseSearchesThenAdds) {
  // HasOurEntry of a parsed configuration only reads it: adding to the same
  // tree afterwards gives what adding to the text gives.
  for (const std::string& text :
       {Testdata("scheduler-config-custom.yaml"),
        *AddOurExtender(Testdata("scheduler-config-custom.yaml"), "c",
                        Options()),
        std::string("apiVersion: kubescheduler.config.k8s.io/v1\n"
                    "kind: KubeSchedulerConfiguration\n"),
        Testdata("scheduler-config-binding-extender.yaml")}) {
    StatusOr<YAML::Node> config = ParseYamlMap(text, "c");
    ASSERT_TRUE(config.ok()) << text;
    const std::string before = EmitYaml(*config);
    EXPECT_EQ(HasOurEntry(*config), HasOurEntry(text)) << text;
    EXPECT_EQ(EmitYaml(*config), before);
    StatusOr<std::string> added = AddOurExtender(*config, "c", Options());
    StatusOr<std::string> expected = AddOurExtender(text, "c", Options());
    ASSERT_EQ(added.status(), expected.status()) << text;
    if (expected.ok()) {
      EXPECT_EQ(*added, *expected);
      EXPECT_TRUE(HasOurEntry(*config));
    }
  }
}

TEST(SchedulerConfigTest, AddToConfigWithoutExtenders) {
  auto added = AddOurExtender(
      "apiVersion: kubescheduler.config.k8s.io/v1\n"
      "kind: KubeSchedulerConfiguration\nextenders: null\n",
      "c", Options());
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  auto config = ParseYamlMap(*added, "added");
  ASSERT_EQ((*config)["extenders"].size(), 1u);
  ExpectContractEntry((*config)["extenders"][0], kUrl);
}

TEST(SchedulerConfigTest, RefusesWhatItMustNotEdit) {
  struct Case {
    std::string text;
    std::string message;
  };
  const Case cases[] = {
      {Testdata("scheduler-config-binding-extender.yaml"), "already binds"},
      {"apiVersion: v1\nkind: Policy\nextenders: []\n",
       "not KubeSchedulerConfiguration"},
      {"apiVersion: v1\nkind: KubeSchedulerConfiguration\n",
       "apiVersion is not"},
      {"apiVersion: kubescheduler.config.k8s.io/v1\n"
       "kind: KubeSchedulerConfiguration\nextenders: {a: 1}\n",
       "not a list"},
      {"extenders: [\n", "c.yaml"},
  };
  for (const Case& c : cases) {
    auto added = AddOurExtender(c.text, "c.yaml", Options());
    ASSERT_FALSE(added.ok()) << c.text;
    EXPECT_EQ(added.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(added.status().message().find(c.message), std::string::npos)
        << added.status().message();
  }
}

// Found by //fuzz:scheduler_config_fuzzer: a key that is a plain scalar of
// some 250 brackets passes the depth guard as written ("- a{{{...: 1"),
// but comes out as an indented explicit key ("  - ? a{{{...") that the
// guard counts 3 levels deeper. The edit refuses rather than write a file
// the config manager could not read back; fewer brackets are edited.
TEST(SchedulerConfigTest, RefusesAnEditThatWouldNotReadBack) {
  const auto config = [](int brackets) {
    return "apiVersion: kubescheduler.config.k8s.io/v1\n"
           "kind: KubeSchedulerConfiguration\nextenders:\n- a" +
           std::string(brackets, '{') + ": 1\n";
  };
  // "- " counts 2 levels as written: 253 brackets are the deepest accepted.
  ASSERT_TRUE(ParseYamlMap(config(253), "c.yaml").ok());
  ASSERT_FALSE(ParseYamlMap(config(255), "c.yaml").ok());
  auto refused = AddOurExtender(config(253), "c.yaml", Options());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message(),
            "c.yaml as edited: YAML nested deeper than 256 levels (block "
            "style); not written, it would not read back");
  // The guard counts the unclosed brackets on every later line too, and
  // our entry's deepest line is 8 columns deep ("      - name").
  auto added = AddOurExtender(config(248), "c.yaml", Options());
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  EXPECT_TRUE(HasOurEntry(*added)) << *added;
}

void ExpectPlainEntry(const YAML::Node& e, const std::string& url);

// The shipped examples in configs/scheduler carry the contract entry and
// the plain-pod entry (shipped by default), and each has the apiVersion its
// name says.
TEST(SchedulerConfigTest, ShippedExamplesCarryTheContract) {
  for (const std::string version : {"v1", "v1beta3", "v1beta2"}) {
    std::string path =
        RunfilePath("configs/scheduler/scheduler-config-" + version + ".yaml");
    std::string text = ReadFileOrEmpty(path);
    ASSERT_FALSE(text.empty()) << path;
    auto config = ParseYamlMap(text, path);
    ASSERT_TRUE(config.ok()) << config.status().ToString();
    EXPECT_EQ((*config)["apiVersion"].Scalar(),
              "kubescheduler.config.k8s.io/" + version);
    EXPECT_EQ((*config)["kind"].Scalar(), "KubeSchedulerConfiguration");
    const std::string url =
        "http://gcushare-scheduler-extender.kube-system.svc:32766/"
        "gcushare-scheduler";
    ASSERT_EQ((*config)["extenders"].size(), 2u);
    ExpectContractEntry((*config)["extenders"][0], url);
    ExpectPlainEntry((*config)["extenders"][1], url);
  }
}

}  // namespace
}  // namespace gcushare::config_manager

namespace gcushare::config_manager {
namespace {

// The plain-pod entry (docs/contracts.md): prioritize only, no
// managedResources, ignorable, the same urlPrefix.
void ExpectPlainEntry(const YAML::Node& e, const std::string& url) {
  ASSERT_TRUE(e.IsMap());
  EXPECT_EQ(e["urlPrefix"].Scalar(), url);
  EXPECT_EQ(e["prioritizeVerb"].Scalar(), "plain/prioritize");
  EXPECT_FALSE(e["filterVerb"]);
  EXPECT_FALSE(e["bindVerb"]);
  EXPECT_FALSE(e["managedResources"]);
  EXPECT_EQ(e["weight"].as<int>(), 25);
  EXPECT_TRUE(e["nodeCacheCapable"].as<bool>());
  EXPECT_TRUE(e["ignorable"].as<bool>(false));
  EXPECT_TRUE(IsOurEntry(e));
}

TEST(SchedulerConfigTest, PlainEntryOnlyWhenRankingPlainPods) {
  // The default ranks plain pods.
  ExtenderEntryOptions plain;
  plain.url_prefix = kUrl;
  const std::string text =
      NewSchedulerConfig("kubescheduler.config.k8s.io/v1",
                         "/etc/kubernetes/scheduler.conf", false, plain);
  auto config = ParseYamlMap(text, "new");
  ASSERT_TRUE(config.ok()) << text;
  ASSERT_EQ((*config)["extenders"].size(), 2u);
  ExpectContractEntry((*config)["extenders"][0], kUrl);
  ExpectPlainEntry((*config)["extenders"][1], kUrl);

  // Added to a configuration with another extender: ours follow it; adding
  // again changes nothing; turning it off drops the plain entry.
  std::string original = Testdata("scheduler-config-custom.yaml");
  auto added = AddOurExtender(original, "custom.yaml", plain);
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  auto added_config = ParseYamlMap(*added, "added");
  ASSERT_EQ((*added_config)["extenders"].size(), 3u);
  ExpectContractEntry((*added_config)["extenders"][1], kUrl);
  ExpectPlainEntry((*added_config)["extenders"][2], kUrl);
  auto again = AddOurExtender(*added, "added", plain);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *added);
  auto off = AddOurExtender(*added, "added", Options());
  ASSERT_TRUE(off.ok());
  auto off_config = ParseYamlMap(*off, "off");
  ASSERT_EQ((*off_config)["extenders"].size(), 2u);
  ExpectContractEntry((*off_config)["extenders"][1], kUrl);
}

}  // namespace
}  // namespace gcushare::config_manager
