#include "cdi/builder.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "cdi/names.h"
#include "cdi/version.h"
#include "contract/container_env.h"
#include "contract/names.h"

namespace gcushare::cdi {
namespace {

std::string CardName(const efml::Card& card) {
  return "card " + std::to_string(card.index);
}

// The container sees the card as /dev/gcu<index> whatever the host path.
DeviceNode CardNode(const efml::Card& card) {
  DeviceNode node;
  node.path = efml::DefaultDevicePath(card.index);
  if (card.device.path != node.path) node.host_path = card.device.path;
  node.type = "c";
  if (card.device.major && card.device.minor) {
    node.major = *card.device.major;
    node.minor = *card.device.minor;
  }
  return node;
}

DeviceNode ControlNode(const efml::DeviceNode& control) {
  DeviceNode node;
  node.path = control.path;
  node.type = "c";
  if (control.major && control.minor) {
    node.major = *control.major;
    node.minor = *control.minor;
  }
  return node;
}

// CDI env entries are "NAME=value" strings.
std::string VisibleDevices(const std::vector<uint32_t>& cards) {
  auto [name, value] = contract::VisibleDevicesEnv(cards);
  return name + "=" + value;
}

Device CardDevice(const std::string& name, const efml::Card& card) {
  Device device;
  device.name = name;
  device.container_edits.env.push_back(VisibleDevices({card.index}));
  device.container_edits.device_nodes.push_back(CardNode(card));
  return device;
}

}  // namespace

StatusOr<Spec> BuildSpec(const efml::Inventory& inventory) {
  if (inventory.cards.empty()) {
    return InvalidArgumentError(
        "no cards found: a CDI spec needs at least one device");
  }
  std::vector<efml::Card> cards = inventory.cards;
  std::stable_sort(cards.begin(), cards.end(),
                   [](const efml::Card& a, const efml::Card& b) {
                     return a.index < b.index;
                   });

  // Device name -> the device that has it, to refuse clashes clearly.
  std::map<std::string, std::string> owners;
  Spec spec;
  spec.kind = std::string(contract::kCdiKind);
  for (const efml::Card& card : cards) {
    std::string name = std::to_string(card.index);
    if (!owners.emplace(name, CardName(card) + "'s index device").second) {
      return InvalidArgumentError(CardName(card) +
                                  ": the index appears more than once");
    }
    spec.devices.push_back(CardDevice(name, card));
  }
  owners.emplace(std::string(contract::kCdiAllDevice), "the all-cards device");
  for (const efml::Card& card : cards) {
    const std::string prefix = CardName(card) + ": uuid \"" + card.uuid +
                               "\" cannot be a CDI device name: ";
    if (Status s = ValidateDeviceName(card.uuid); !s.ok()) {
      return InvalidArgumentError(prefix + s.message());
    }
    auto [it, inserted] =
        owners.emplace(card.uuid, CardName(card) + "'s uuid device");
    if (!inserted) {
      return InvalidArgumentError(prefix + "it is already the name of " +
                                  it->second);
    }
    spec.devices.push_back(CardDevice(card.uuid, card));
  }

  Device all;
  all.name = std::string(contract::kCdiAllDevice);
  std::vector<uint32_t> indexes;
  for (const efml::Card& card : cards) {
    indexes.push_back(card.index);
    all.container_edits.device_nodes.push_back(CardNode(card));
  }
  all.container_edits.env.push_back(VisibleDevices(indexes));
  spec.devices.push_back(std::move(all));

  for (const efml::DeviceNode& control : inventory.control_nodes) {
    spec.container_edits.device_nodes.push_back(ControlNode(control));
  }
  spec.cdi_version = MinimumVersion(ToJson(spec));
  return spec;
}

}  // namespace gcushare::cdi
