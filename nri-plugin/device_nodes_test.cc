#include "nri-plugin/device_nodes.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testing/files.h"

namespace gcushare::nri {
namespace {

TEST(HostDeviceNodesTest, FollowsSymlinksToRealNodes) {
  std::string root = gcushare::testing::MakeTempDir();
  ASSERT_EQ(::mkdir((root + "/dev").c_str(), 0755), 0);
  ASSERT_EQ(::symlink("/dev/null", (root + "/dev/gcu1").c_str()), 0);
  gcushare::testing::WriteFileOrDie(root + "/dev/gcu2", "not a device");
  HostDeviceNodes nodes(root + "/");
  auto info = nodes.Stat("/dev/gcu1");
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->type, "c");
  EXPECT_EQ(info->major, 1);  // /dev/null is 1:3 on Linux.
  EXPECT_EQ(info->minor, 3);
  EXPECT_EQ(info->file_mode, 0666u);
  EXPECT_EQ(nodes.Stat("/dev/gcu0").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(nodes.Stat("/dev/gcu2").status().code(),
            StatusCode::kFailedPrecondition);
}

TEST(HostDeviceNodesTest, RealRoot) {
  HostDeviceNodes nodes;
  auto info = nodes.Stat("/dev/null");
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->minor, 3);
}

}  // namespace
}  // namespace gcushare::nri
