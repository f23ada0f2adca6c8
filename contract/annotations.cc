#include "contract/annotations.h"

#include <charconv>
#include <set>

#include "contract/names.h"
#include "json/bounded_parse.h"

namespace gcushare::contract {
namespace {

StatusOr<uint64_t> ParseUnsigned(std::string_view text, std::string_view what) {
  uint64_t value = 0;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return InvalidArgumentError(std::string(what) + ": \"" + std::string(text) +
                                "\" is not a non-negative integer");
  }
  return value;
}

// The string value of an annotation, or nullptr when absent.
const std::string* Get(const nlohmann::json& annotations,
                       std::string_view key) {
  if (!annotations.is_object()) return nullptr;
  auto it = annotations.find(key);  // No std::string built for the key.
  if (it == annotations.end() || !it->is_string()) return nullptr;
  return it->get_ptr<const std::string*>();
}

}  // namespace

std::string JoinCardList(const std::vector<uint32_t>& cards) {
  std::string out;
  for (size_t i = 0; i < cards.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(cards[i]);
  }
  return out;
}

StatusOr<std::vector<uint32_t>> ParseCardList(std::string_view text) {
  std::vector<uint32_t> cards;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string_view item = text.substr(
        start, comma == std::string_view::npos ? comma : comma - start);
    GCUSHARE_ASSIGN_OR_RETURN(uint64_t value,
                              ParseUnsigned(item, "card list item"));
    if (value > UINT32_MAX) {
      return InvalidArgumentError("card index " + std::string(item) +
                                  " is out of range");
    }
    cards.push_back(static_cast<uint32_t>(value));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return cards;
}

std::map<std::string, std::string> EncodeAssignment(const CardAssignment& a) {
  nlohmann::json containers = nlohmann::json::object();
  for (const auto& [name, cards] : a.container_cards) containers[name] = cards;
  std::map<std::string, std::string> out = {
      {std::string(kPodDeviceId), JoinCardList(a.cards)},
      {std::string(kPodMemoryRequest), std::to_string(a.request_units)},
      {std::string(kPodAssignTime), std::to_string(a.assign_time_ns)},
      {std::string(kPodAssigned), a.assigned ? "true" : "false"},
      {std::string(kPodContainerDevices), containers.dump()},
  };
  if (a.card_memory_units.has_value()) {
    out[std::string(kPodDeviceMemory)] = std::to_string(*a.card_memory_units);
  }
  if (a.memory_unit.has_value()) {
    out[std::string(kNodeMemoryUnit)] = *a.memory_unit;
  }
  return out;
}

StatusOr<std::optional<CardAssignment>> DecodeAssignment(
    const nlohmann::json& annotations) {
  return DecodeAssignment(
      [&annotations](std::string_view key) -> std::optional<std::string_view> {
        const std::string* value = Get(annotations, key);
        if (value == nullptr) return std::nullopt;
        return std::string_view(*value);
      });
}

StatusOr<std::optional<CardAssignment>> DecodeAssignment(
    const AnnotationLookup& lookup) {
  const std::optional<std::string_view> id = lookup(kPodDeviceId);
  if (!id.has_value()) return std::optional<CardAssignment>();
  CardAssignment a;
  StatusOr<std::vector<uint32_t>> cards = ParseCardList(*id);
  if (!cards.ok()) return cards.status().WithContext(kPodDeviceId);
  a.cards = std::move(*cards);
  if (const std::optional<std::string_view> v = lookup(kPodDeviceMemory)) {
    GCUSHARE_ASSIGN_OR_RETURN(a.card_memory_units,
                              ParseUnsigned(*v, kPodDeviceMemory));
  }
  if (const std::optional<std::string_view> v = lookup(kNodeMemoryUnit)) {
    a.memory_unit = std::string(*v);
  }
  if (const std::optional<std::string_view> v = lookup(kPodMemoryRequest)) {
    GCUSHARE_ASSIGN_OR_RETURN(a.request_units,
                              ParseUnsigned(*v, kPodMemoryRequest));
  }
  if (const std::optional<std::string_view> v = lookup(kPodAssignTime)) {
    GCUSHARE_ASSIGN_OR_RETURN(uint64_t t, ParseUnsigned(*v, kPodAssignTime));
    if (t > static_cast<uint64_t>(INT64_MAX)) {
      return InvalidArgumentError(std::string(kPodAssignTime) + ": \"" +
                                  std::string(*v) + "\" is out of range");
    }
    a.assign_time_ns = static_cast<int64_t>(t);
  }
  if (const std::optional<std::string_view> v = lookup(kPodAssigned)) {
    if (*v != "true" && *v != "false") {
      return InvalidArgumentError(std::string(kPodAssigned) + ": \"" +
                                  std::string(*v) +
                                  "\" is not \"true\" or \"false\"");
    }
    a.assigned = *v == "true";
  }
  if (const std::optional<std::string_view> v = lookup(kPodContainerDevices)) {
    nlohmann::json parsed =
        json::ParseJson(*v, kPodContainerDevices).value_or(nlohmann::json());
    if (!parsed.is_object()) {
      return InvalidArgumentError(std::string(kPodContainerDevices) +
                                  ": not a JSON object of container -> "
                                  "card list");
    }
    for (const auto& [name, list] : parsed.items()) {
      if (!list.is_array()) {
        return InvalidArgumentError(std::string(kPodContainerDevices) + ": " +
                                    name + " is not a list of card indexes");
      }
      std::vector<uint32_t> container_cards;
      for (const nlohmann::json& index : list) {
        if (!index.is_number_unsigned() || index.get<uint64_t>() > UINT32_MAX) {
          return InvalidArgumentError(std::string(kPodContainerDevices) + ": " +
                                      name + " holds " + index.dump() +
                                      ", not a card index");
        }
        container_cards.push_back(index.get<uint32_t>());
      }
      a.container_cards[name] = std::move(container_cards);
    }
  }
  return std::optional<CardAssignment>(std::move(a));
}

nlohmann::json EncodeAssignedMark() {
  return {{std::string(kPodAssigned), "true"}};
}

bool HasAssignedMark(const nlohmann::json& annotations) {
  const std::string* v = Get(annotations, kPodAssigned);
  return v != nullptr && *v == "true";
}

StatusOr<std::vector<uint32_t>> CardsForContainer(const CardAssignment& a,
                                                  std::string_view container) {
  auto it = a.container_cards.find(std::string(container));
  if (it != a.container_cards.end()) return it->second;
  if (a.container_cards.empty()) return a.cards;
  return NotFoundError("container " + std::string(container) +
                       " asked for no card");
}

std::string EncodeNodeCards(const std::vector<NodeCard>& cards) {
  // ordered_json keeps docs/contracts.md's key order, easier for people to
  // read.
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const NodeCard& c : cards) {
    nlohmann::ordered_json j = {{"index", c.index},
                                {"uuid", c.uuid},
                                {"memory", c.memory_units},
                                {"healthy", c.healthy}};
    if (c.numa.has_value()) j["numa"] = *c.numa;
    out.push_back(std::move(j));
  }
  return out.dump();
}

StatusOr<std::vector<NodeCard>> DecodeNodeCards(std::string_view text) {
  const std::string where(kNodeDevices);
  auto bounded = json::ParseJson(text, where);
  if (!bounded.ok()) return bounded.status();
  const nlohmann::json& parsed = *bounded;
  if (!parsed.is_array()) {
    return InvalidArgumentError(where + ": not a JSON array");
  }
  std::vector<NodeCard> cards;
  std::set<uint32_t> seen;
  for (size_t i = 0; i < parsed.size(); ++i) {
    const nlohmann::json& j = parsed[i];
    const std::string at = where + "[" + std::to_string(i) + "]";
    if (!j.is_object()) return InvalidArgumentError(at + ": not an object");
    NodeCard c;
    auto index = j.find("index");
    auto memory = j.find("memory");
    auto uuid = j.find("uuid");
    if (index == j.end() || !index->is_number_unsigned() ||
        index->get<uint64_t>() > UINT32_MAX) {
      return InvalidArgumentError(at + ": index missing or not a card index");
    }
    if (memory == j.end() || !memory->is_number_unsigned()) {
      return InvalidArgumentError(at + ": memory missing or negative");
    }
    if (uuid != j.end() && !uuid->is_string()) {
      return InvalidArgumentError(at + ": uuid is not a string");
    }
    c.index = index->get<uint32_t>();
    c.memory_units = memory->get<uint64_t>();
    if (uuid != j.end()) c.uuid = uuid->get<std::string>();
    auto healthy = j.find("healthy");
    if (healthy != j.end()) {
      if (!healthy->is_boolean()) {
        return InvalidArgumentError(at + ": healthy is not true/false");
      }
      c.healthy = healthy->get<bool>();
    }
    auto numa = j.find("numa");
    if (numa != j.end() && !numa->is_null()) {
      if (!numa->is_number_integer()) {
        return InvalidArgumentError(at + ": numa is not an integer");
      }
      c.numa = numa->get<int>();
    }
    if (!seen.insert(c.index).second) {
      return InvalidArgumentError(at + ": card index " +
                                  std::to_string(c.index) + " repeated");
    }
    cards.push_back(std::move(c));
  }
  return cards;
}

}  // namespace gcushare::contract
