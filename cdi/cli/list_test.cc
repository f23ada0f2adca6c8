#include "cdi/cli/list.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/files.h"

namespace gcushare::cdi {
namespace {

using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::WriteFileOrDie;
using ::testing::HasSubstr;

std::string Spec(const std::string& kind,
                 const std::vector<std::string>& names) {
  std::string text =
      "{\"cdiVersion\": \"0.5.0\", \"kind\": \"" + kind + "\", \"devices\": [";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) text += ", ";
    text += "{\"name\": \"" + names[i] +
            "\", \"containerEdits\": {\"env\": [\"A=1\"]}}";
  }
  return text + "]}";
}

TEST(ListTest, SortedUniqueNamesFromDirsAndFiles) {
  std::string etc = MakeTempDir();
  std::string run = MakeTempDir();
  std::string other = MakeTempDir();
  WriteFileOrDie(run + "/enflame.com-gcu.json",
                 Spec("enflame.com/gcu", {"1", "0", "all"}));
  WriteFileOrDie(etc + "/vendor.com-gpu.json", Spec("vendor.com/gpu", {"a"}));
  // The same device in two directories is listed once.
  WriteFileOrDie(etc + "/enflame.com-gcu.json", Spec("enflame.com/gcu", {"0"}));
  WriteFileOrDie(other + "/x.json", Spec("x.io/y", {"z"}));
  ListReport report =
      ListDevices({other + "/x.json"}, {etc, run, etc + "/missing"});
  EXPECT_TRUE(report.errors.empty());
  EXPECT_EQ(report.names,
            (std::vector<std::string>{"enflame.com/gcu=0", "enflame.com/gcu=1",
                                      "enflame.com/gcu=all", "vendor.com/gpu=a",
                                      "x.io/y=z"}));
}

TEST(ListTest, InvalidSpecsAreReportedAndSkipped) {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/good.json", Spec("enflame.com/gcu", {"0"}));
  WriteFileOrDie(dir + "/bad.json", Spec("enflame.com/gcu", {"GCU/1"}));
  WriteFileOrDie(dir + "/broken.yaml", "devices: [\n");
  ListReport report = ListDevices({dir + "/missing.json"}, {dir});
  EXPECT_EQ(report.names, std::vector<std::string>{"enflame.com/gcu=0"});
  ASSERT_EQ(report.errors.size(), 3u);
  EXPECT_THAT(report.errors[0].message(), HasSubstr(dir + "/missing.json"));
  EXPECT_THAT(report.errors[1].message(),
              HasSubstr(dir + "/bad.json: devices[0].name: \"GCU/1\""));
  EXPECT_THAT(report.errors[2].message(), HasSubstr(dir + "/broken.yaml line"));
}

TEST(ListTest, NothingToList) {
  ListReport report = ListDevices({}, {MakeTempDir()});
  EXPECT_TRUE(report.names.empty());
  EXPECT_TRUE(report.errors.empty());
}

}  // namespace
}  // namespace gcushare::cdi
