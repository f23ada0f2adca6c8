#include "device-plugin/container_response.h"

#include "cdi/names.h"
#include "contract/annotations.h"
#include "contract/container_env.h"
#include "contract/names.h"

namespace gcushare::deviceplugin {
namespace {

const efml::Card* FindCard(const efml::Inventory& inventory, uint32_t index) {
  for (const efml::Card& card : inventory.cards) {
    if (card.index == index) return &card;
  }
  return nullptr;
}

void AddDeviceSpec(const std::string& container_path,
                   const std::string& host_path,
                   v1beta1::ContainerAllocateResponse& response) {
  v1beta1::DeviceSpec* spec = response.add_devices();
  spec->set_container_path(container_path);
  spec->set_host_path(host_path);
  spec->set_permissions("rw");
}

// ENFLAME_VISIBLE_DEVICES and the memory environment of docs/contracts.md.
void AddEnvironment(const PodMatch& match,
                    const std::vector<const efml::Card*>& cards,
                    contract::MemoryUnit unit,
                    v1beta1::ContainerAllocateResponse& response) {
  contract::ContainerEnv env;
  env.cards = match.cards;
  env.memory_limit_mib = unit.MibOfUnits(match.container.memory_units);
  env.memory_total_mib = cards.front()->memory_mib;
  env.unit = unit;
  auto& envs = *response.mutable_envs();
  for (auto& [name, value] : contract::EncodeContainerEnv(env)) {
    envs[name] = std::move(value);
  }
}

}  // namespace

std::string CdiAnnotationKey(const std::vector<uint32_t>& cards) {
  std::string key = std::string(contract::kCdiAnnotationPrefix) +
                    std::string(contract::kCdiVendor) + "." +
                    std::string(contract::kCdiClass) + "_";
  for (size_t i = 0; i < cards.size(); ++i) {
    if (i > 0) key += "-";
    key += std::to_string(cards[i]);
  }
  return key;
}

StatusOr<v1beta1::ContainerAllocateResponse> BuildContainerResponse(
    const PodMatch& match, const efml::Inventory& inventory,
    contract::MemoryUnit unit, const ResponseOptions& options) {
  v1beta1::ContainerAllocateResponse response;
  std::vector<const efml::Card*> cards;
  for (uint32_t index : match.cards) {
    const efml::Card* card = FindCard(inventory, index);
    if (card == nullptr) {
      return FailedPreconditionError(
          "pod " + match.Key() + " is assigned card " + std::to_string(index) +
          ", which this node does not have");
    }
    cards.push_back(card);
  }
  if (cards.empty()) {
    return FailedPreconditionError("pod " + match.Key() +
                                   " is assigned no card");
  }
  if (options.devices_from_nri) {
    AddEnvironment(match, cards, unit, response);
    return response;
  }
  std::string names;
  for (const efml::Card* card : cards) {
    std::string name =
        cdi::QualifiedName(contract::kCdiKind, std::to_string(card->index));
    response.add_cdi_devices()->set_name(name);
    if (!names.empty()) names += ",";
    names += name;
  }
  (*response.mutable_annotations())[CdiAnnotationKey(match.cards)] = names;

  AddEnvironment(match, cards, unit, response);

  if (options.device_specs) {
    for (const efml::Card* card : cards) {
      AddDeviceSpec(efml::DefaultDevicePath(card->index), card->device.path,
                    response);
    }
    for (const efml::DeviceNode& node : inventory.control_nodes) {
      AddDeviceSpec(node.path, node.path, response);
    }
  }
  return response;
}

}  // namespace gcushare::deviceplugin
