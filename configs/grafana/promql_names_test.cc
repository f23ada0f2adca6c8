#include "configs/grafana/promql_names.h"

#include <gtest/gtest.h>

namespace gcushare::grafana {
namespace {

using Names = std::set<std::string>;

TEST(MetricNamesTest, FindsMetricsAndSkipsEverythingElse) {
  EXPECT_EQ(MetricNames("gcushare_a"), Names({"gcushare_a"}));
  EXPECT_EQ(MetricNames(R"(histogram_quantile(0.99, sum by (verb, le) )"
                        R"((rate(x_bucket{verb=~"$verb",le!="1"}[5m]))))"),
            Names({"x_bucket"}));
  EXPECT_EQ(MetricNames("a{node=~\"$node\"} / on (node, card) "
                        "group_left(unit) b offset 1h > bool 0.5e3"),
            Names({"a", "b"}));
  EXPECT_EQ(MetricNames("sum without (pod) (rate(c[$__rate_interval])) or "
                        "vector(0) and ${d}"),
            Names({"c"}));
  EXPECT_EQ(MetricNames("count(up{job='x'}) unless absent(gone_total)"),
            Names({"up", "gone_total"}));
  EXPECT_EQ(MetricNames("sum by (node) (a) + max without (x) (bytes)"),
            Names({"a", "bytes"}));
  EXPECT_EQ(MetricNames("1 + 2"), Names());
}

TEST(ExposedNamesTest, FamiliesAndHistogramSeries) {
  EXPECT_EQ(ExposedNames("# HELP a_total A.\n# TYPE a_total counter\n"
                         "a_total 1\n# TYPE h histogram\nh_bucket{le=\"1\"} 0\n"
                         "# TYPE g gauge\n"),
            Names({"a_total", "h", "h_bucket", "h_sum", "h_count", "g"}));
}

}  // namespace
}  // namespace gcushare::grafana
