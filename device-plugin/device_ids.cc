#include "device-plugin/device_ids.h"

#include <algorithm>
#include <optional>

namespace gcushare::deviceplugin {
namespace {

constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";

void AppendBase36(uint64_t value, std::string& out) {
  char buffer[16];
  int n = 0;
  do {
    buffer[n++] = kDigits[value % 36];
    value /= 36;
  } while (value != 0);
  while (n > 0) out.push_back(buffer[--n]);
}

// Digits of `value` in base 36.
size_t Base36Length(uint64_t value) {
  size_t n = 1;
  while (value >= 36) {
    value /= 36;
    ++n;
  }
  return n;
}

std::optional<uint64_t> ParseBase36(std::string_view text) {
  if (text.empty() || text.size() > 12) return std::nullopt;
  // No leading zeros: every number has exactly one spelling.
  if (text.size() > 1 && text[0] == '0') return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    int digit;
    if (c >= '0' && c <= '9') {
      digit = c - '0';
    } else if (c >= 'a' && c <= 'z') {
      digit = c - 'a' + 10;
    } else {
      return std::nullopt;
    }
    value = value * 36 + static_cast<uint64_t>(digit);
  }
  return value;
}

size_t VarintLength(uint64_t value) {
  size_t n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

// A length-delimited field with a one-byte tag.
size_t Field(size_t body) { return 1 + VarintLength(body) + body; }

// Sum over unit numbers 0..units-1 of Base36Length(unit).
uint64_t SumOfDigitCounts(uint64_t units) {
  uint64_t total = 0;
  uint64_t low = 0;
  uint64_t high = 36;  // Numbers in [low, high) have `digits` digits.
  for (size_t digits = 1; low < units; ++digits) {
    total += (std::min(units, high) - low) * digits;
    low = high;
    high *= 36;
  }
  return total;
}

}  // namespace

std::string DeviceId(uint32_t card, uint64_t unit) {
  std::string id;
  id.reserve(12);
  AppendBase36(card, id);
  id.push_back('-');
  AppendBase36(unit, id);
  return id;
}

StatusOr<ParsedDeviceId> ParseDeviceId(std::string_view id) {
  size_t dash = id.find('-');
  std::optional<uint64_t> card, unit;
  if (dash != std::string_view::npos) {
    card = ParseBase36(id.substr(0, dash));
    unit = ParseBase36(id.substr(dash + 1));
  }
  if (!card || !unit || *card > UINT32_MAX) {
    return InvalidArgumentError("device ID \"" + std::string(id) +
                                "\" is not one of ours (<card>-<unit>)");
  }
  return ParsedDeviceId{static_cast<uint32_t>(*card), *unit};
}

uint64_t CardUnits(const efml::Card& card, contract::MemoryUnit unit) {
  return unit.UnitsInMib(card.memory_mib);
}

uint64_t TotalUnits(const efml::Inventory& inventory,
                    contract::MemoryUnit unit) {
  uint64_t total = 0;
  for (const efml::Card& card : inventory.cards) total += CardUnits(card, unit);
  return total;
}

v1beta1::ListAndWatchResponse BuildDeviceList(const efml::Inventory& inventory,
                                              contract::MemoryUnit unit) {
  v1beta1::ListAndWatchResponse response;
  response.mutable_devices()->Reserve(static_cast<int>(
      std::min<uint64_t>(TotalUnits(inventory, unit), INT32_MAX)));
  for (const efml::Card& card : inventory.cards) {
    const std::string health(card.healthy ? kHealthy : kUnhealthy);
    v1beta1::TopologyInfo topology;
    if (card.numa_node) topology.add_nodes()->set_id(*card.numa_node);
    std::string prefix;
    AppendBase36(card.index, prefix);
    prefix.push_back('-');
    const uint64_t units = CardUnits(card, unit);
    for (uint64_t n = 0; n < units; ++n) {
      v1beta1::Device* device = response.add_devices();
      std::string id = prefix;
      AppendBase36(n, id);
      device->set_id(std::move(id));
      device->set_health(health);
      if (card.numa_node) *device->mutable_topology() = topology;
    }
  }
  return response;
}

size_t DeviceListBytes(const efml::Inventory& inventory,
                       contract::MemoryUnit unit, HealthAssumption health) {
  size_t total = 0;
  for (const efml::Card& card : inventory.cards) {
    const uint64_t units = CardUnits(card, unit);
    if (units == 0) continue;
    const bool healthy = health == HealthAssumption::kAsIs && card.healthy;
    const size_t health_field =
        Field(healthy ? kHealthy.size() : kUnhealthy.size());
    size_t topology_field = 0;
    if (card.numa_node) {
      const int64_t numa = *card.numa_node;
      // NUMANode{ID}: field 1 varint, omitted when 0 (proto3). Negative
      // int64s take 10 bytes.
      const size_t numa_body =
          numa == 0
              ? 0
              : 1 + (numa < 0 ? 10 : VarintLength(static_cast<uint64_t>(numa)));
      topology_field = Field(Field(numa_body));
    }
    const size_t prefix = Base36Length(card.index) + 1;
    // Every device is Field(Field(ID) + health + topology). Entries stay
    // under 128 bytes (IDs of at most 21 characters), so both lengths take
    // one byte and a device's size depends only on its ID's length.
    const size_t fixed = 4 + prefix + health_field + topology_field;
    total += static_cast<size_t>(units * fixed + SumOfDigitCounts(units));
  }
  return total;
}

}  // namespace gcushare::deviceplugin
