// The metric names a PromQL expression reads, for checking dashboards
// against the metrics the code exports. Not a PromQL parser: it drops
// string literals, label matchers ({...}), ranges ([...]), Grafana
// variables ($x, ${x}), the label lists of by/without/on/ignoring/
// group_left/group_right, function and aggregation names (an identifier
// followed by "("), keywords and numbers with their suffixes (5m, 1e3);
// every other identifier is a metric name.
//
// Pure functions; thread-safe; never fail (odd input yields odd names,
// which the caller's check then reports).
#ifndef GCUSHARE_CONFIGS_GRAFANA_PROMQL_NAMES_H_
#define GCUSHARE_CONFIGS_GRAFANA_PROMQL_NAMES_H_

#include <set>
#include <string>
#include <string_view>

namespace gcushare::grafana {

std::set<std::string> MetricNames(std::string_view expr);

// The series names a Prometheus text exposition declares: each "# TYPE"
// family, and for histograms and summaries their _bucket/_sum/_count
// series.
std::set<std::string> ExposedNames(std::string_view exposition);

}  // namespace gcushare::grafana

#endif  // GCUSHARE_CONFIGS_GRAFANA_PROMQL_NAMES_H_
