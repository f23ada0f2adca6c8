#include "device-plugin/advertise_mode.h"

#include <fmt/format.h>

#include "device-plugin/device_ids.h"

namespace gcushare::deviceplugin {

std::string_view AdvertiseModeName(AdvertiseMode mode) {
  return mode == AdvertiseMode::kDeviceIds ? "device-ids" : "node-status";
}

StatusOr<AdvertiseModeFlag> ParseAdvertiseModeFlag(std::string_view text) {
  if (text == "auto") return AdvertiseModeFlag::kAuto;
  if (text == "device-ids") return AdvertiseModeFlag::kDeviceIds;
  if (text == "node-status") return AdvertiseModeFlag::kNodeStatus;
  return InvalidArgumentError("unknown advertise mode \"" + std::string(text) +
                              "\" (valid: auto, device-ids, node-status)");
}

StatusOr<ModeDecision> DecideMode(const efml::Inventory& inventory,
                                  contract::MemoryUnit unit,
                                  AdvertiseModeFlag flag, size_t budget_bytes) {
  ModeDecision decision;
  decision.device_ids = TotalUnits(inventory, unit);
  decision.worst_list_bytes =
      DeviceListBytes(inventory, unit, HealthAssumption::kAllUnhealthy);
  const std::string size = fmt::format(
      "{} cards at unit {} GiB give {} device IDs, a ListAndWatch message of "
      "up to {} bytes",
      inventory.cards.size(), unit.ToString(), decision.device_ids,
      decision.worst_list_bytes);
  switch (flag) {
    case AdvertiseModeFlag::kNodeStatus:
      decision.mode = AdvertiseMode::kNodeStatus;
      decision.reason = size + "; node-status mode forced by --advertise-mode";
      return decision;
    case AdvertiseModeFlag::kDeviceIds:
      if (decision.worst_list_bytes > kKubeletMaxMessageBytes) {
        return FailedPreconditionError(
            size + ", over kubelet's limit of " +
            std::to_string(kKubeletMaxMessageBytes) +
            " bytes: device-ID mode cannot work (use --advertise-mode=auto "
            "or node-status, or a coarser --memory-unit)");
      }
      decision.mode = AdvertiseMode::kDeviceIds;
      decision.reason = size + "; device-ID mode forced by --advertise-mode";
      return decision;
    case AdvertiseModeFlag::kAuto:
      break;
  }
  if (decision.worst_list_bytes <= budget_bytes) {
    decision.mode = AdvertiseMode::kDeviceIds;
    decision.reason = fmt::format(
        "{}, within the budget of {} bytes: device-ID mode (register with "
        "kubelet)",
        size, budget_bytes);
  } else {
    decision.mode = AdvertiseMode::kNodeStatus;
    decision.reason = fmt::format(
        "{}, over the budget of {} bytes (kubelet rejects messages over {}): "
        "node-status mode (capacity in node status, no kubelet "
        "registration, hand-out by the NRI plugin)",
        size, budget_bytes, kKubeletMaxMessageBytes);
  }
  return decision;
}

}  // namespace gcushare::deviceplugin
