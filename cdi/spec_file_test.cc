#include "cdi/spec_file.h"

#include <sys/stat.h>
#include <unistd.h>

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
using ::testing::StartsWith;

constexpr char kSpec[] = R"(cdiVersion: "0.5.0"
kind: enflame.com/gcu
devices:
  - name: "0"
    containerEdits:
      deviceNodes: [{path: /dev/gcu0}]
  - name: all
    containerEdits:
      deviceNodes: [{path: /dev/gcu0}]
)";

TEST(SpecFileTest, LoadsAndSummarises) {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/a.yaml", kSpec);
  StatusOr<LoadedSpec> spec = LoadSpecFile(dir + "/a.yaml");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->path, dir + "/a.yaml");
  EXPECT_EQ(spec->cdi_version, "0.5.0");
  EXPECT_EQ(spec->kind, "enflame.com/gcu");
  EXPECT_EQ(spec->device_names, (std::vector<std::string>{"0", "all"}));
  EXPECT_EQ(
      spec->QualifiedNames(),
      (std::vector<std::string>{"enflame.com/gcu=0", "enflame.com/gcu=all"}));
}

TEST(SpecFileTest, ErrorsStartWithThePath) {
  std::string dir = MakeTempDir();
  std::string path = dir + "/bad.yaml";
  WriteFileOrDie(path, std::string(kSpec) + "extra: 1\n");
  StatusOr<LoadedSpec> spec = LoadSpecFile(path);
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().message(),
            path +
                ": extra: unknown field (allowed here: cdiVersion, kind, "
                "annotations, devices, containerEdits)");

  WriteFileOrDie(path, "a: [\n");
  spec = LoadSpecFile(path);
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(), StartsWith(path + " line "));

  spec = LoadSpecFile(dir + "/none.json");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(), HasSubstr(dir + "/none.json"));
}

TEST(SpecFileTest, FindsTopLevelJsonAndYamlOnly) {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/b.yaml", "");
  WriteFileOrDie(dir + "/a.json", "");
  WriteFileOrDie(dir + "/c.yml", "");
  WriteFileOrDie(dir + "/d.json.tmp-abcdef", "");
  WriteFileOrDie(dir + "/README", "");
  ASSERT_EQ(mkdir((dir + "/sub").c_str(), 0755), 0);
  WriteFileOrDie(dir + "/sub/e.json", "");
  ASSERT_EQ(mkdir((dir + "/dir.json").c_str(), 0755), 0);
  ASSERT_EQ(symlink((dir + "/a.json").c_str(), (dir + "/link.json").c_str()),
            0);
  StatusOr<std::vector<std::string>> files = FindSpecFiles(dir);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_EQ(*files, (std::vector<std::string>{dir + "/a.json", dir + "/b.yaml",
                                              dir + "/link.json"}));
}

TEST(SpecFileTest, MissingDirectoryHasNoFiles) {
  StatusOr<std::vector<std::string>> files =
      FindSpecFiles(MakeTempDir() + "/missing");
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_TRUE(files->empty());
}

TEST(SpecFileTest, ADirectoryThatIsAFileIsAnError) {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/f", "");
  StatusOr<std::vector<std::string>> files = FindSpecFiles(dir + "/f");
  ASSERT_FALSE(files.ok());
  EXPECT_THAT(files.status().message(),
              HasSubstr("cannot read spec directory " + dir + "/f"));
}

}  // namespace
}  // namespace gcushare::cdi
