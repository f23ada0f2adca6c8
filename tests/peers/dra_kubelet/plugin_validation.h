// What the kubelet checks in a DRA plugin's registration answer (GetInfo),
// as pkg/kubelet/pluginmanager/operationexecutor/operation_generator.go and
// pkg/kubelet/cm/dra/plugin/dra_plugin_manager.go (validateSupportedServices)
// do in kubelet 1.34-1.36:
//   - type must be "DRAPlugin" (the only handler the stand-in has);
//   - an empty endpoint means the registration socket itself;
//   - supported_versions is walked in the plugin's order and the first
//     service the kubelet supports ("v1.DRAPlugin", "v1beta1.DRAPlugin") is
//     chosen; an empty list or no supported entry is refused;
//   - the driver name must not be empty (the kubelet cannot look such a
//     driver up later: "DRA driver name is empty").
// The refusal messages are the kubelet's, so the plugin sees the same
// NotifyRegistrationStatus error text.
//
// Pure functions; thread-safe; never throw.
#ifndef GCUSHARE_TESTS_PEERS_DRA_KUBELET_PLUGIN_VALIDATION_H_
#define GCUSHARE_TESTS_PEERS_DRA_KUBELET_PLUGIN_VALIDATION_H_

#include <string>
#include <string_view>
#include <vector>

#include "status/status.h"

namespace gcushare::peers::dra_kubelet {

inline constexpr std::string_view kDraPluginType = "DRAPlugin";
inline constexpr std::string_view kServiceV1 = "v1.DRAPlugin";
inline constexpr std::string_view kServiceV1beta1 = "v1beta1.DRAPlugin";
inline constexpr std::string_view kHealthService = "v1alpha1.DRAResourceHealth";

// The DRA services this kubelet accepts, most recent first.
const std::vector<std::string>& ServicesSupportedByKubelet();

// A registration the kubelet accepts.
struct ValidatedPlugin {
  std::string driver_name;
  std::string endpoint;        // Absolute socket path.
  std::string chosen_service;  // "v1.DRAPlugin" or "v1beta1.DRAPlugin".
  bool serves_health = false;  // Lists "v1alpha1.DRAResourceHealth".
};

// The first supported service of `supported` in its order, or
// InvalidArgument with the kubelet's message.
StatusOr<std::string> ChooseService(const std::vector<std::string>& supported);

// Validates a GetInfo answer received on `socket_path`. The error message is
// what the kubelet sends in NotifyRegistrationStatus.error.
StatusOr<ValidatedPlugin> ValidatePluginInfo(
    std::string_view type, std::string_view name, std::string_view endpoint,
    const std::vector<std::string>& supported_versions,
    std::string_view socket_path);

}  // namespace gcushare::peers::dra_kubelet

#endif  // GCUSHARE_TESTS_PEERS_DRA_KUBELET_PLUGIN_VALIDATION_H_
