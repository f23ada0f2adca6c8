#include "dra-driver/slice_builder.h"

#include <algorithm>
#include <cctype>

#include "contract/names.h"
#include "dra-driver/device_name.h"
#include "dra-driver/memory_quantity.h"

namespace gcushare::dra {
namespace {

// Attribute strings and versions are at most 64 characters.
constexpr size_t kMaxAttributeLength = 64;

bool IsNumericIdentifier(std::string_view part) {
  if (part.empty()) return false;
  if (!std::all_of(part.begin(), part.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      })) {
    return false;
  }
  return part.size() == 1 || part[0] != '0';
}

bool IsIdentifierList(std::string_view text, bool numeric_no_leading_zero) {
  if (text.empty()) return false;
  size_t start = 0;
  while (true) {
    const size_t dot = text.find('.', start);
    const std::string_view part = text.substr(
        start,
        dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (part.empty()) return false;
    for (char c : part) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') {
        return false;
      }
    }
    const bool all_digits = std::all_of(part.begin(), part.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
    if (numeric_no_leading_zero && all_digits && !IsNumericIdentifier(part)) {
      return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

Status CheckOptions(const SliceBuilderOptions& options) {
  if (options.node_name.empty()) {
    return InvalidArgumentError("slices: the node name is required");
  }
  if (options.node_uid.empty()) {
    return InvalidArgumentError("slices: the node uid is required");
  }
  if (!IsSemver(options.driver_version) ||
      options.driver_version.size() > kMaxAttributeLength) {
    return InvalidArgumentError(
        "slices: driver version \"" + options.driver_version +
        "\" is not a semantic version of at most 64 characters (e.g. 1.4.0)");
  }
  if (options.card_model.empty() ||
      options.card_model.size() > kMaxAttributeLength) {
    return InvalidArgumentError("slices: card model \"" + options.card_model +
                                "\" must have 1 to 64 characters");
  }
  return OkStatus();
}

Status CheckCard(const efml::Card& card) {
  if (card.uuid.empty() || card.uuid.size() > kMaxAttributeLength) {
    return InvalidArgumentError("slices: card " + std::to_string(card.index) +
                                ": uuid \"" + card.uuid +
                                "\" must have 1 to 64 characters");
  }
  if (card.memory_mib == 0) {
    return InvalidArgumentError("slices: card " + std::to_string(card.index) +
                                ": memory must be positive");
  }
  return OkStatus();
}

nlohmann::json MemoryCapacity(uint64_t memory_mib,
                              const SliceBuilderOptions& options) {
  const uint64_t bytes = memory_mib * kBytesPerMib;
  nlohmann::json memory = {{"value", FormatBytes(bytes)}};
  if (!options.consumable_capacity) return memory;
  const uint64_t unit = UnitBytes(options.memory_unit);
  const uint64_t full = bytes / unit * unit;
  // The policy needs min + step <= value; a card smaller than two units
  // is published whole (no policy: a request takes what it asks).
  if (full < 2 * unit) return memory;
  memory["requestPolicy"] = {{"default", FormatBytes(full)},
                             {"validRange",
                              {{"min", FormatBytes(unit)},
                               {"step", FormatBytes(unit)},
                               {"max", FormatBytes(full)}}}};
  return memory;
}

}  // namespace

std::string SliceNamePrefix(std::string_view node_name) {
  return std::string(node_name) + "-" + std::string(contract::kDraDriverName) +
         "-";
}

bool IsSemver(std::string_view text) {
  std::string_view core = text;
  std::string_view build;
  std::string_view pre;
  if (const size_t plus = core.find('+'); plus != std::string_view::npos) {
    build = core.substr(plus + 1);
    core = core.substr(0, plus);
    if (!IsIdentifierList(build, false)) return false;
  }
  if (const size_t dash = core.find('-'); dash != std::string_view::npos) {
    pre = core.substr(dash + 1);
    core = core.substr(0, dash);
    if (!IsIdentifierList(pre, true)) return false;
  }
  int parts = 0;
  size_t start = 0;
  while (true) {
    const size_t dot = core.find('.', start);
    const std::string_view part = core.substr(
        start,
        dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (!IsNumericIdentifier(part)) return false;
    ++parts;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts == 3;
}

nlohmann::json BuildDevice(const efml::Card& card,
                           const SliceBuilderOptions& options) {
  nlohmann::json attributes = {
      {"uuid", {{"string", card.uuid}}},
      {"index", {{"int", card.index}}},
      {"model", {{"string", options.card_model}}},
      {"driverVersion", {{"version", options.driver_version}}},
  };
  if (card.numa_node.has_value()) {
    attributes["numaNode"] = {{"int", *card.numa_node}};
  }
  nlohmann::json device = {
      {"name", DeviceName(card.index)},
      {"attributes", std::move(attributes)},
      {"capacity", {{"memory", MemoryCapacity(card.memory_mib, options)}}},
  };
  if (options.consumable_capacity &&
      device["capacity"]["memory"].contains("requestPolicy")) {
    device["allowMultipleAllocations"] = true;
  }
  if (!card.healthy && options.taint_unhealthy) {
    device["taints"] = nlohmann::json::array(
        {{{"key", std::string(kUnhealthyTaintKey)}, {"effect", "NoSchedule"}}});
  }
  return device;
}

StatusOr<std::vector<nlohmann::json>> BuildSlices(
    const efml::Inventory& inventory, const SliceBuilderOptions& options,
    int64_t generation) {
  GCUSHARE_RETURN_IF_ERROR(CheckOptions(options));
  std::vector<nlohmann::json> devices;
  bool any_taints = false;
  for (const efml::Card& card : inventory.cards) {
    GCUSHARE_RETURN_IF_ERROR(CheckCard(card));
    if (!card.healthy && !options.taint_unhealthy) continue;
    devices.push_back(BuildDevice(card, options));
    any_taints = any_taints || devices.back().contains("taints");
  }
  const size_t per_slice =
      any_taints ? kMaxDevicesPerSliceWithTaints : kMaxDevicesPerSlice;
  std::vector<nlohmann::json> device_groups;
  for (size_t i = 0; i < devices.size(); i += per_slice) {
    nlohmann::json group = nlohmann::json::array();
    for (size_t j = i; j < std::min(devices.size(), i + per_slice); ++j) {
      group.push_back(std::move(devices[j]));
    }
    device_groups.push_back(std::move(group));
  }
  if (device_groups.empty()) device_groups.push_back(nlohmann::json::array());

  const nlohmann::json owner = {{"apiVersion", "v1"},
                                {"kind", "Node"},
                                {"name", options.node_name},
                                {"uid", options.node_uid},
                                {"controller", true}};
  std::vector<nlohmann::json> slices;
  slices.reserve(device_groups.size());
  for (nlohmann::json& group : device_groups) {
    slices.push_back({{"apiVersion", "resource.k8s.io/v1"},
                      {"kind", "ResourceSlice"},
                      {"metadata",
                       {{"generateName", SliceNamePrefix(options.node_name)},
                        {"ownerReferences", nlohmann::json::array({owner})}}},
                      {"spec",
                       {{"driver", std::string(contract::kDraDriverName)},
                        {"nodeName", options.node_name},
                        {"pool",
                         {{"name", options.node_name},
                          {"generation", generation},
                          {"resourceSliceCount", device_groups.size()}}},
                        {"devices", std::move(group)}}}});
  }
  return slices;
}

}  // namespace gcushare::dra
