#include "tests/e2e/bind_journal.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "kube/json_fields.h"

namespace gcushare::e2e {

StatusOr<std::map<std::string, int>> CountBindCommits(
    const std::vector<std::string>& journal_files) {
  std::map<std::string, std::string> node_of;  // Pod key -> last nodeName.
  std::map<std::string, int> commits;
  for (const std::string& path : journal_files) {
    std::ifstream in(path);
    if (!in) return NotFoundError("no journal file " + path);
    std::string line;
    while (std::getline(in, line)) {
      nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
      if (record.is_discarded() || !record.is_object() ||
          record.value("resource", "") != "pods") {
        continue;
      }
      const std::string key = record.value("key", "");
      if (record.value("op", "") == "delete") {
        node_of.erase(key);
        continue;
      }
      if (record.value("op", "") != "put") continue;
      const std::string node =
          kube::StringAt(record, {"object", "spec", "nodeName"});
      std::string& last = node_of[key];
      if (!node.empty() && node != last) ++commits[key];
      last = node;
    }
  }
  return commits;
}

}  // namespace gcushare::e2e
