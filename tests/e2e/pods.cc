#include "tests/e2e/pods.h"

#include "contract/names.h"

namespace gcushare::e2e {

nlohmann::json MakePod(const std::string& ns, const std::string& name,
                       const std::vector<ContainerRequest>& containers) {
  nlohmann::json specs = nlohmann::json::array();
  for (const ContainerRequest& c : containers) {
    nlohmann::json limits = nlohmann::json::object();
    if (c.memory_units > 0) {
      limits[std::string(contract::kResourceMemory)] =
          std::to_string(c.memory_units);
    }
    if (c.whole_cards > 0) {
      limits[std::string(contract::kResourceCount)] =
          std::to_string(c.whole_cards);
    }
    nlohmann::json container = {
        {"name", c.name},
        {"image", "ubuntu:22.04"},
        {"command", {"sleep", "infinity"}},
    };
    if (!limits.empty()) container["resources"] = {{"limits", limits}};
    specs.push_back(container);
  }
  return {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", name}, {"namespace", ns}}},
      {"spec",
       {{"schedulerName", "default-scheduler"},
        {"restartPolicy", "Never"},
        {"containers", specs}}},
  };
}

nlohmann::json MakeSharedPod(const std::string& name, int64_t memory_units) {
  return MakePod("default", name, {{"main", memory_units, 0}});
}

nlohmann::json MakeWholeCardPod(const std::string& name, int64_t cards) {
  return MakePod("default", name, {{"main", 0, cards}});
}

nlohmann::json MakeNode(const std::string& name) {
  nlohmann::json resources = {
      {"cpu", "64"}, {"memory", "256Gi"}, {"pods", "110"}};
  return {
      {"apiVersion", "v1"},
      {"kind", "Node"},
      {"metadata",
       {{"name", name},
        {"labels",
         {{"kubernetes.io/hostname", name},
          {"kubernetes.io/os", "linux"},
          {std::string(contract::kSharingNodeLabel),
           std::string(contract::kSharingNodeLabelValue)}}}}},
      {"spec", nlohmann::json::object()},
      {"status",
       {{"capacity", resources},
        {"allocatable", resources},
        {"conditions",
         {{{"type", "Ready"},
           {"status", "True"},
           {"reason", "KubeletReady"}}}}}},
  };
}

}  // namespace gcushare::e2e
