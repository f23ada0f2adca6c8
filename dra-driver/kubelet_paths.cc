#include "dra-driver/kubelet_paths.h"

namespace gcushare::dra {

KubeletPaths MakeKubeletPaths(std::string_view kubelet_root,
                              std::string_view driver_name) {
  std::string root(kubelet_root);
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  const std::string driver(driver_name);
  KubeletPaths paths;
  paths.registration_socket =
      root + "/plugins_registry/" + driver + "-reg.sock";
  paths.plugin_dir = root + "/plugins/" + driver;
  paths.service_socket = paths.plugin_dir + "/dra.sock";
  paths.checkpoint = paths.plugin_dir + "/checkpoint.json";
  return paths;
}

}  // namespace gcushare::dra
