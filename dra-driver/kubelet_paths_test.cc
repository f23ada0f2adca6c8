#include "dra-driver/kubelet_paths.h"

#include <gtest/gtest.h>

namespace gcushare::dra {
namespace {

TEST(KubeletPathsTest, UpstreamLayout) {
  for (std::string_view root : {"/var/lib/kubelet", "/var/lib/kubelet/"}) {
    KubeletPaths paths = MakeKubeletPaths(root, "gcu.enflame.com");
    EXPECT_EQ(paths.registration_socket,
              "/var/lib/kubelet/plugins_registry/gcu.enflame.com-reg.sock");
    EXPECT_EQ(paths.plugin_dir, "/var/lib/kubelet/plugins/gcu.enflame.com");
    EXPECT_EQ(paths.service_socket,
              "/var/lib/kubelet/plugins/gcu.enflame.com/dra.sock");
    EXPECT_EQ(paths.checkpoint,
              "/var/lib/kubelet/plugins/gcu.enflame.com/checkpoint.json");
  }
  EXPECT_EQ(MakeKubeletPaths("/data/k", "d").service_socket,
            "/data/k/plugins/d/dra.sock");
}

}  // namespace
}  // namespace gcushare::dra
