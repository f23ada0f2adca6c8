#include "extender/testing/objects.h"

#include <algorithm>

#include "contract/annotations.h"
#include "contract/names.h"

namespace gcushare::extender::testing {

nlohmann::json SharingNode(const std::string& name, int cards, uint64_t units,
                           const std::string& unit,
                           const std::vector<uint32_t>& unhealthy) {
  std::vector<contract::NodeCard> list;
  for (int i = 0; i < cards; ++i) {
    contract::NodeCard card;
    card.index = static_cast<uint32_t>(i);
    card.uuid = "GCU-" + name + "-" + std::to_string(i);
    card.memory_units = units;
    card.healthy =
        std::find(unhealthy.begin(), unhealthy.end(), i) == unhealthy.end();
    card.numa = i < cards / 2 ? 0 : 1;
    list.push_back(card);
  }
  nlohmann::json node = PlainNode(name);
  node["metadata"]["labels"][std::string(contract::kSharingNodeLabel)] =
      std::string(contract::kSharingNodeLabelValue);
  node["metadata"]["annotations"] = {
      {std::string(contract::kNodeMemoryUnit), unit},
      {std::string(contract::kNodeDevices), contract::EncodeNodeCards(list)}};
  node["status"]["allocatable"][std::string(contract::kResourceCount)] =
      std::to_string(cards);
  return node;
}

nlohmann::json PlainNode(const std::string& name) {
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata",
           {{"name", name},
            {"uid", "node-uid-" + name},
            {"labels", {{"kubernetes.io/hostname", name}}}}},
          {"spec", nlohmann::json::object()},
          {"status", nlohmann::json::object()}};
}

nlohmann::json Pod(const std::string& ns, const std::string& name,
                   const std::string& uid,
                   const std::vector<ContainerSpec>& containers) {
  nlohmann::json list = nlohmann::json::array();
  for (const ContainerSpec& c : containers) {
    nlohmann::json limits = nlohmann::json::object();
    if (c.memory > 0) {
      limits[std::string(contract::kResourceMemory)] = std::to_string(c.memory);
    }
    if (c.cards > 0) {
      limits[std::string(contract::kResourceCount)] = std::to_string(c.cards);
    }
    list.push_back({{"name", c.name},
                    {"image", "busybox"},
                    {"resources", {{"limits", limits}}}});
  }
  return {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata",
       {{"name", name},
        {"namespace", ns},
        {"uid", uid.empty() ? "uid-" + name : uid},
        {"creationTimestamp", "2026-11-23T10:00:00Z"}}},
      {"spec", {{"containers", list}, {"schedulerName", "default-scheduler"}}},
      {"status", {{"phase", "Pending"}}}};
}

nlohmann::json MemoryPod(const std::string& name, uint64_t memory,
                         const std::string& uid) {
  return Pod("default", name, uid, {{"main", memory, 0}});
}

nlohmann::json Assigned(nlohmann::json pod, const std::string& node,
                        const std::vector<uint32_t>& cards,
                        uint64_t card_units) {
  contract::CardAssignment a;
  a.cards = cards;
  a.card_memory_units = card_units;
  uint64_t total = 0;
  bool whole = false;
  for (const auto& c : pod["spec"]["containers"]) {
    const auto& limits = c["resources"]["limits"];
    auto mem = limits.find(std::string(contract::kResourceMemory));
    if (mem != limits.end()) total += std::stoull(mem->get<std::string>());
    if (limits.contains(std::string(contract::kResourceCount))) whole = true;
    a.container_cards[c["name"].get<std::string>()] = cards;
  }
  a.request_units = whole ? card_units * cards.size() : total;
  a.assign_time_ns = 1;
  a.assigned = true;
  for (const auto& [key, value] : contract::EncodeAssignment(a)) {
    pod["metadata"]["annotations"][key] = value;
  }
  pod["spec"]["nodeName"] = node;
  pod["status"]["phase"] = "Running";
  return pod;
}

}  // namespace gcushare::extender::testing
