#include "nri-plugin/adjustment.h"

#include <algorithm>
#include <charconv>

#include "contract/annotations.h"
#include "contract/container_env.h"
#include "contract/names.h"

namespace gcushare::nri {

std::string CardDevicePath(uint32_t index) {
  return "/dev/gcu" + std::to_string(index);
}

std::optional<uint32_t> CardIndexOfPath(std::string_view path) {
  constexpr std::string_view kPrefix = "/dev/gcu";
  if (path.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::string_view digits = path.substr(kPrefix.size());
  if (digits.empty() || digits.size() > 9) return std::nullopt;
  uint32_t index = 0;
  auto [end, ec] =
      std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (ec != std::errc() || end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return index;
}

api::ContainerAdjustment BuildAdjustment(const AdjustmentInput& input,
                                         const api::Container& container) {
  api::ContainerAdjustment adjust;
  const std::vector<uint32_t>& cards = input.cards.cards;
  api::LinuxContainerAdjustment* linux = adjust.mutable_linux();
  for (const api::LinuxDevice& d : container.linux().devices()) {
    std::optional<uint32_t> index = CardIndexOfPath(d.path());
    if (!index.has_value()) continue;
    if (std::find(cards.begin(), cards.end(), *index) != cards.end()) continue;
    linux->add_devices()->set_path("-" + d.path());
  }
  for (size_t i = 0; i < cards.size() && i < input.nodes.size(); ++i) {
    const DeviceNodeInfo& node = input.nodes[i];
    api::LinuxDevice* d = linux->add_devices();
    d->set_path(CardDevicePath(cards[i]));
    d->set_type(node.type);
    d->set_major(node.major);
    d->set_minor(node.minor);
    d->mutable_file_mode()->set_value(node.file_mode);
  }
  contract::ContainerEnv env;
  env.cards = cards;
  if (input.cards.shared && input.cards.limit_units.has_value()) {
    env.memory_limit_mib = input.unit.MibOfUnits(*input.cards.limit_units);
  }
  if (input.card_memory_units.has_value()) {
    env.memory_total_mib = input.unit.MibOfUnits(*input.card_memory_units);
  }
  env.unit = input.unit;
  for (auto& [name, value] : contract::EncodeContainerEnv(env)) {
    api::KeyValue* kv = adjust.add_env();
    kv->set_key(name);
    kv->set_value(std::move(value));
  }
  return adjust;
}

std::vector<uint32_t> RemovedCardsStillAllowed(
    const api::Container& container, const api::ContainerAdjustment& adjust) {
  std::vector<uint32_t> out;
  for (const api::LinuxDevice& removal : adjust.linux().devices()) {
    if (removal.path().empty() || removal.path()[0] != '-') continue;
    const std::string path = removal.path().substr(1);
    std::optional<uint32_t> index = CardIndexOfPath(path);
    if (!index.has_value()) continue;
    for (const api::LinuxDevice& d : container.linux().devices()) {
      if (d.path() != path) continue;
      bool allowed = false;
      for (const api::LinuxDeviceCgroup& rule :
           container.linux().resources().devices()) {
        // Later rules win; the last one that matches decides.
        const bool type = rule.type().empty() || rule.type() == "a" ||
                          rule.type() == d.type();
        const bool major =
            !rule.has_major() || rule.major().value() == d.major();
        const bool minor =
            !rule.has_minor() || rule.minor().value() == d.minor();
        if (type && major && minor) allowed = rule.allow();
      }
      if (allowed) out.push_back(*index);
    }
  }
  return out;
}

}  // namespace gcushare::nri
