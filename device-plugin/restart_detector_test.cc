#include "device-plugin/restart_detector.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <map>

#include "testing/files.h"

namespace gcushare::deviceplugin {
namespace {

// A file system in a map: path -> identity.
class MapProber : public FileProber {
 public:
  FileIdentity Probe(const std::string& path) override {
    auto it = files.find(path);
    return it == files.end() ? FileIdentity{} : it->second;
  }
  std::map<std::string, FileIdentity> files;
};

TEST(RestartDetectorTest, SocketRecreatedOrOursRemoved) {
  MapProber fs;
  fs.files["/d/kubelet.sock"] = {true, 1, 10, 5};
  fs.files["/d/ours.sock"] = {true, 1, 11, 6};
  RestartDetector detector("/d/kubelet.sock", "/d/ours.sock", &fs);
  detector.Arm();
  EXPECT_FALSE(detector.Check());

  // Same inode number reused, new change time: still a new file.
  fs.files["/d/kubelet.sock"] = {true, 1, 10, 7};
  auto why = detector.Check();
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("kubelet.sock was created anew"), std::string::npos);

  detector.Arm();
  EXPECT_FALSE(detector.Check());
  fs.files.erase("/d/ours.sock");
  why = detector.Check();
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("ours.sock was removed"), std::string::npos);
}

TEST(RestartDetectorTest, KubeletAppearing) {
  MapProber fs;
  fs.files["/d/ours.sock"] = {true, 1, 11, 6};
  RestartDetector detector("/d/kubelet.sock", "/d/ours.sock", &fs);
  detector.Arm();  // kubelet absent.
  EXPECT_FALSE(detector.Check());
  fs.files["/d/kubelet.sock"] = {true, 1, 12, 8};
  EXPECT_TRUE(detector.Check());
  // kubelet gone again (stopped, not restarted): not a restart by itself.
  detector.Arm();
  fs.files.erase("/d/kubelet.sock");
  EXPECT_FALSE(detector.Check());
}

TEST(StatFileProberTest, RealFiles) {
  std::string dir = gcushare::testing::MakeTempDir();
  StatFileProber prober;
  EXPECT_FALSE(prober.Probe(dir + "/x").exists);
  gcushare::testing::WriteFileOrDie(dir + "/x", "1");
  FileIdentity first = prober.Probe(dir + "/x");
  EXPECT_TRUE(first.exists);
  EXPECT_NE(first.inode, 0u);
  EXPECT_EQ(prober.Probe(dir + "/x"), first);
  ::unlink((dir + "/x").c_str());
  ::rmdir(dir.c_str());
}

}  // namespace
}  // namespace gcushare::deviceplugin
