// configs/grafana/gcushare-dashboard.json reads only metrics the code
// exports: every metric name in a panel's PromQL (and in the template
// variables' queries) must be one that the extender, the device plugin or
// the NRI plugin registers. The exported names come from the components'
// own registration code, rendered into one registry.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/testing/fake_clock.h"
#include "configs/grafana/promql_names.h"
#include "device-plugin/plugin_metrics.h"
#include "extender/cache_metrics.h"
#include "extender/card_cache.h"
#include "extender/extender_service.h"
#include "extender/http_server.h"
#include "kube/testing/fake_kube_client.h"
#include "metrics/registry.h"
#include "nri-plugin/plugin_metrics.h"
#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare::grafana {
namespace {

// Every metric any GCUShare component serves on /metrics.
std::set<std::string> Exported() {
  metrics::Registry registry;
  extender::CardCache cache;
  kube::FakeKubeClient client;
  base::FakeClock clock;
  extender::ExtenderService service(&cache, &client, &clock,
                                    placement::Policy::kBinpack, &registry);
  extender::ExtenderHttpServer server(&service, &registry,
                                      extender::HttpServerOptions{});
  extender::RegisterCacheMetrics(&cache, &registry);
  deviceplugin::PluginMetrics device_plugin(&registry, "node-1");
  nri::NriMetrics nri(&registry);
  return ExposedNames(registry.Render());
}

struct Query {
  std::string where;
  std::string expr;
};

void CollectPanels(const nlohmann::json& panels, std::vector<Query>* out) {
  for (const nlohmann::json& panel : panels) {
    const std::string title = panel.value("title", "?");
    for (const nlohmann::json& target :
         panel.value("targets", nlohmann::json::array())) {
      if (target.contains("expr")) {
        out->push_back(
            {"panel \"" + title + "\" target " + target.value("refId", "?"),
             target["expr"].get<std::string>()});
      }
    }
    CollectPanels(panel.value("panels", nlohmann::json::array()), out);
  }
}

class DashboardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string text =
        gcushare::testing::ReadFileOrEmpty(gcushare::testing::RunfilePath(
            "configs/grafana/gcushare-dashboard.json"));
    dashboard_ = nlohmann::json::parse(text, nullptr, false);
    ASSERT_TRUE(dashboard_.is_object()) << "not JSON: " << text.substr(0, 80);
    CollectPanels(dashboard_["panels"], &queries_);
    for (const nlohmann::json& variable :
         dashboard_["templating"].value("list", nlohmann::json::array())) {
      const nlohmann::json& query =
          variable.contains("query") ? variable["query"] : nlohmann::json();
      std::string expr = query.is_object() ? query.value("query", "")
                         : query.is_string() && variable["type"] == "query"
                             ? query.get<std::string>()
                             : "";
      if (!expr.empty()) {
        // label_values(metric, label): the metric is the first argument.
        const std::string prefix = "label_values(";
        if (expr.rfind(prefix, 0) == 0) {
          expr = expr.substr(prefix.size(), expr.find(',') - prefix.size());
        }
        queries_.push_back({"variable " + variable.value("name", "?"), expr});
      }
    }
  }

  nlohmann::json dashboard_;
  std::vector<Query> queries_;
};

TEST_F(DashboardTest, EveryQueryNamesAnExportedMetric) {
  const std::set<std::string> exported = Exported();
  ASSERT_FALSE(exported.empty());
  ASSERT_FALSE(queries_.empty());
  for (const Query& q : queries_) {
    const std::set<std::string> names = MetricNames(q.expr);
    EXPECT_FALSE(names.empty()) << q.where << ": no metric in " << q.expr;
    for (const std::string& name : names) {
      EXPECT_TRUE(exported.count(name))
          << q.where << ": " << name << " is not exported by any component ("
          << q.expr << ")";
    }
  }
}

TEST_F(DashboardTest, ShowsWhatTheIssueAsksFor) {
  std::set<std::string> used;
  for (const Query& q : queries_) {
    for (const std::string& name : MetricNames(q.expr)) used.insert(name);
  }
  for (const char* name :
       {"gcushare_card_memory_used_units", "gcushare_card_memory_total_units",
        "gcushare_node_memory_used_units",
        "gcushare_extender_request_duration_seconds_bucket",
        "gcushare_extender_bind_failures_total",
        "gcushare_nri_create_container_duration_seconds_bucket"}) {
    EXPECT_TRUE(used.count(name)) << name;
  }
}

}  // namespace
}  // namespace gcushare::grafana
