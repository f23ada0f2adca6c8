#include "tests/peers/dra_kubelet/plugin_validation.h"

#include <algorithm>

namespace gcushare::peers::dra_kubelet {
namespace {

// Go's %q of a []string: ["a" "b"].
std::string QuoteList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += " ";
    out += "\"" + items[i] + "\"";
  }
  return out + "]";
}

}  // namespace

const std::vector<std::string>& ServicesSupportedByKubelet() {
  static const std::vector<std::string> kServices = {
      std::string(kServiceV1), std::string(kServiceV1beta1)};
  return kServices;
}

StatusOr<std::string> ChooseService(const std::vector<std::string>& supported) {
  if (supported.empty()) {
    return InvalidArgumentError(
        "empty list of supported gRPC services (aka supported versions)");
  }
  const std::vector<std::string>& ours = ServicesSupportedByKubelet();
  for (const std::string& service : supported) {
    if (std::find(ours.begin(), ours.end(), service) != ours.end()) {
      return service;
    }
  }
  return InvalidArgumentError(
      "none of services supported by the plugin (" + QuoteList(supported) +
      ") are supported by the kubelet (" + QuoteList(ours) + ")");
}

StatusOr<ValidatedPlugin> ValidatePluginInfo(
    std::string_view type, std::string_view name, std::string_view endpoint,
    const std::vector<std::string>& supported_versions,
    std::string_view socket_path) {
  if (type != kDraPluginType) {
    return InvalidArgumentError(
        "RegisterPlugin error -- no handler registered for plugin type: " +
        std::string(type) + " at socket " + std::string(socket_path));
  }
  ValidatedPlugin plugin;
  plugin.driver_name = std::string(name);
  plugin.endpoint =
      endpoint.empty() ? std::string(socket_path) : std::string(endpoint);
  StatusOr<std::string> chosen = ChooseService(supported_versions);
  if (!chosen.ok()) {
    return InvalidArgumentError(
        "RegisterPlugin error -- plugin validation failed with err: invalid "
        "supported gRPC versions of DRA driver plugin " +
        plugin.driver_name + " at endpoint " + plugin.endpoint + ": " +
        chosen.status().message());
  }
  if (plugin.driver_name.empty()) {
    return InvalidArgumentError(
        "RegisterPlugin error -- plugin registration failed with err: DRA "
        "driver name is empty");
  }
  plugin.chosen_service = *chosen;
  plugin.serves_health =
      std::find(supported_versions.begin(), supported_versions.end(),
                kHealthService) != supported_versions.end();
  return plugin;
}

}  // namespace gcushare::peers::dra_kubelet
