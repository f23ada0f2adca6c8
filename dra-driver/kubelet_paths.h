// Where a DRA driver's sockets and state live under the kubelet's root
// directory (shared/DRA.md section 1): the registration socket in
// <root>/plugins_registry/<driver>-reg.sock, the DRA service socket and the
// driver's own files in <root>/plugins/<driver>/. The kubelet dials the
// service socket at the path the plugin announces, so the path must be the
// same inside the driver's container and on the host (the chart mounts the
// directories at their host paths).
//
// A value type; pure; thread-compatible.
#ifndef GCUSHARE_DRA_DRIVER_KUBELET_PATHS_H_
#define GCUSHARE_DRA_DRIVER_KUBELET_PATHS_H_

#include <string>
#include <string_view>

namespace gcushare::dra {

struct KubeletPaths {
  std::string registration_socket;  // <root>/plugins_registry/<d>-reg.sock
  std::string plugin_dir;           // <root>/plugins/<d>
  std::string service_socket;       // <root>/plugins/<d>/dra.sock
  std::string checkpoint;           // <root>/plugins/<d>/checkpoint.json
};

KubeletPaths MakeKubeletPaths(std::string_view kubelet_root,
                              std::string_view driver_name);

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_KUBELET_PATHS_H_
