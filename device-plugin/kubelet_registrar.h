// KubeletRegistrar: registers the plugin with kubelet (docs/protocols.md 1.4
// step 2): Registration.Register on <device-plugin-dir>/kubelet.sock.
//
// GrpcKubeletRegistrar dials the socket afresh for every call (kubelet may
// have restarted since the last one) and waits at most `timeout` for the
// answer; kubelet dials the plugin back inside Register, so the plugin must
// be serving before the call.
//
// Thread-safety: Register may be called from any thread.
// Failure: Unavailable when kubelet is not there (no socket, connection
// refused, deadline); kubelet's own error (e.g. InvalidArgument for an
// unsupported version) otherwise, with kubelet's message.
#ifndef GCUSHARE_DEVICE_PLUGIN_KUBELET_REGISTRAR_H_
#define GCUSHARE_DEVICE_PLUGIN_KUBELET_REGISTRAR_H_

#include <chrono>
#include <string>

#include "device-plugin/api/api.pb.h"
#include "status/status.h"

namespace gcushare::deviceplugin {

// The API version kubelet accepts.
inline constexpr std::string_view kDevicePluginApiVersion = "v1beta1";
// kubelet's registration socket, inside the device-plugin directory.
inline constexpr std::string_view kKubeletSocketName = "kubelet.sock";

class KubeletRegistrar {
 public:
  virtual ~KubeletRegistrar() = default;
  virtual Status Register(const v1beta1::RegisterRequest& request) = 0;
};

class GrpcKubeletRegistrar : public KubeletRegistrar {
 public:
  explicit GrpcKubeletRegistrar(
      std::string kubelet_socket,
      std::chrono::milliseconds timeout = std::chrono::seconds(10));

  Status Register(const v1beta1::RegisterRequest& request) override;

 private:
  const std::string kubelet_socket_;
  const std::chrono::milliseconds timeout_;
};

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_KUBELET_REGISTRAR_H_
