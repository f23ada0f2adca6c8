#include "device-plugin/plugin_metrics.h"

#include <utility>

namespace gcushare::deviceplugin {
namespace {

constexpr std::string_view kReasons[] = {"bad_request", "no_pod", "api_server",
                                         "assignment", "other"};

}  // namespace

PluginMetrics::PluginMetrics(metrics::Registry* registry, std::string node)
    : node_(std::move(node)),
      allocations_(registry->AddCounter(
          "gcushare_device_plugin_allocations_total",
          "Containers kubelet asked to Allocate, by result (ok, error).",
          {"result"})),
      failures_(registry->AddCounter(
          "gcushare_device_plugin_allocate_failures_total",
          "Allocate calls refused, by reason (bad_request, no_pod, "
          "api_server, assignment, other).",
          {"reason"})),
      healthy_(registry->AddGauge(
          "gcushare_device_plugin_card_healthy",
          "1 while the card is healthy, 0 while it is not.", {"node", "card"})),
      patches_(registry->AddCounter(
          "gcushare_device_plugin_node_patches_total",
          "Attempts to publish the node's cards to its Node object, by "
          "result (ok, error).",
          {"result"})) {
  for (const char* result : {"ok", "error"}) {
    allocations_.WithLabels({result});
    patches_.WithLabels({result});
  }
  for (std::string_view reason : kReasons) {
    failures_.WithLabels({std::string(reason)});
  }
}

std::string_view PluginMetrics::Reason(const Status& result) {
  switch (result.code()) {
    case StatusCode::kInvalidArgument:
      return "bad_request";
    case StatusCode::kNotFound:
      return "no_pod";
    case StatusCode::kUnavailable:
      return "api_server";
    case StatusCode::kFailedPrecondition:
      return "assignment";
    default:
      return "other";
  }
}

void PluginMetrics::Allocated(const Status& result) {
  allocations_.WithLabels({result.ok() ? "ok" : "error"}).Increment();
  if (!result.ok()) {
    failures_.WithLabels({std::string(Reason(result))}).Increment();
  }
}

void PluginMetrics::NodePatched(const Status& result) {
  patches_.WithLabels({result.ok() ? "ok" : "error"}).Increment();
}

void PluginMetrics::Cards(const efml::Inventory& inventory) {
  for (const efml::Card& card : inventory.cards) {
    healthy_.WithLabels({node_, std::to_string(card.index)})
        .Set(card.healthy ? 1 : 0);
  }
}

}  // namespace gcushare::deviceplugin
