// End-to-end tests of the real gcushare-cdi binary: generate -> validate ->
// list, every kind of bad input, --help and --version.
#include <sys/stat.h>

#include <regex>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare {
namespace {

using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::ProcessResult;
using ::gcushare::testing::ReadFileOrEmpty;
using ::gcushare::testing::RunfilePath;
using ::gcushare::testing::RunProcess;
using ::gcushare::testing::WriteFileOrDie;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string Uuid(int index) {
  std::string number = std::to_string(index + 1);
  return "GCU-U" + std::string(10 - number.size(), '0') + number;
}

std::string EightCardsYaml() {
  std::string yaml = "cards:\n";
  for (int i = 0; i < 8; ++i) {
    yaml += "- index: " + std::to_string(i) + "\n  uuid: " + Uuid(i) +
            "\n  memoryMiB: 32768\n";
  }
  return yaml;
}

std::vector<std::string> SeventeenNames() {
  std::vector<std::string> names;
  names.reserve(17);
  for (int i = 0; i < 8; ++i) {
    names.push_back("enflame.com/gcu=" + std::to_string(i));
  }
  for (int i = 0; i < 8; ++i) names.push_back("enflame.com/gcu=" + Uuid(i));
  names.emplace_back("enflame.com/gcu=all");
  return names;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir();
    out_dir_ = dir_ + "/cdi";
    ASSERT_EQ(mkdir(out_dir_.c_str(), 0755), 0);
    cards_ = dir_ + "/cards.yaml";
    WriteFileOrDie(cards_, EightCardsYaml());
    spec_ = out_dir_ + "/enflame.com-gcu.json";
  }

  ProcessResult Run(std::vector<std::string> args) {
    args.insert(args.begin(), RunfilePath("cdi/cli/gcushare-cdi"));
    StatusOr<ProcessResult> result = RunProcess(args);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ProcessResult{};
  }

  ProcessResult Generate(const std::string& cards,
                         std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"generate", "--fake-cards=" + cards,
                                     "--output-dir=" + out_dir_};
    args.insert(args.end(), extra.begin(), extra.end());
    return Run(args);
  }

  // Generates the good spec and returns its bytes.
  std::string GenerateGoodSpec() {
    ProcessResult result = Generate(cards_);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    std::string bytes = ReadFileOrEmpty(spec_);
    EXPECT_FALSE(bytes.empty());
    return bytes;
  }

  // A broken input must fail with one "gcushare-cdi: ..." line naming the
  // problem and leave the generated spec byte for byte as it was.
  void ExpectRefused(const std::string& cards_yaml,
                     const std::vector<std::string>& message_parts) {
    std::string good = GenerateGoodSpec();
    std::string bad_cards = dir_ + "/bad-cards.yaml";
    WriteFileOrDie(bad_cards, cards_yaml);
    ProcessResult result = Generate(bad_cards);
    EXPECT_NE(result.exit_code, 0);
    EXPECT_EQ(result.out, "");
    ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
    EXPECT_THAT(result.err, StartsWith("gcushare-cdi: "));
    for (const std::string& part : message_parts) {
      EXPECT_THAT(result.err, HasSubstr(part));
    }
    EXPECT_EQ(ReadFileOrEmpty(spec_), good);
  }

  std::string dir_;
  std::string out_dir_;
  std::string cards_;
  std::string spec_;
};

TEST_F(CliTest, GenerateValidateList) {
  ProcessResult generate = Generate(cards_);
  EXPECT_EQ(generate.exit_code, 0) << generate.err;
  EXPECT_EQ(generate.out,
            "wrote " + spec_ + ": 8 cards, 17 devices (cdiVersion 0.5.0)\n");
  EXPECT_EQ(generate.err, "");

  ProcessResult validate = Run({"validate", spec_});
  EXPECT_EQ(validate.exit_code, 0) << validate.err;
  EXPECT_EQ(validate.out, spec_ +
                              ": valid (cdiVersion 0.5.0, kind "
                              "enflame.com/gcu, 17 devices)\n");

  ProcessResult list = Run({"list", "--spec-dir=" + out_dir_});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(Lines(list.out), SeventeenNames());

  ProcessResult list_file = Run({"list", spec_});
  EXPECT_EQ(list_file.exit_code, 0) << list_file.err;
  EXPECT_EQ(Lines(list_file.out), SeventeenNames());
}

TEST_F(CliTest, CardsPrintsWhatDiscoverySees) {
  ProcessResult cards = Run({"cards", "--fake-cards=" + cards_});
  EXPECT_EQ(cards.exit_code, 0) << cards.err;
  std::vector<std::string> lines = Lines(cards.out);
  ASSERT_EQ(lines.size(), 10u) << cards.out;
  EXPECT_EQ(lines[0], "backend: fake, 8 cards");
  EXPECT_THAT(lines[1], StartsWith("INDEX  UUID"));
  EXPECT_THAT(lines[2], StartsWith("0      " + Uuid(0)));
  EXPECT_THAT(lines[9], HasSubstr("/dev/gcu7"));
  // Nothing is written.
  EXPECT_EQ(ReadFileOrEmpty(spec_), "");
  ProcessResult broken = Run({"cards", "--fake-cards=" + dir_ + "/none.yaml"});
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_THAT(broken.err, HasSubstr("none.yaml"));
}

TEST_F(CliTest, SecondGenerateIsUnchanged) {
  std::string bytes = GenerateGoodSpec();
  struct stat before;
  ASSERT_EQ(stat(spec_.c_str(), &before), 0);
  ProcessResult again = Generate(cards_);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, "unchanged " + spec_ +
                           ": 8 cards, 17 devices (cdiVersion 0.5.0)\n");
  struct stat after;
  ASSERT_EQ(stat(spec_.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(ReadFileOrEmpty(spec_), bytes);
}

TEST_F(CliTest, YamlFormatReplacesJson) {
  GenerateGoodSpec();
  std::string yaml = out_dir_ + "/enflame.com-gcu.yaml";
  ProcessResult generate = Generate(cards_, {"--format=yaml"});
  EXPECT_EQ(generate.exit_code, 0) << generate.err;
  EXPECT_EQ(generate.out, "wrote " + yaml +
                              ": 8 cards, 17 devices (cdiVersion 0.5.0); "
                              "removed " +
                              spec_ + "\n");
  EXPECT_THAT(ReadFileOrEmpty(yaml), HasSubstr("- name: \"0\"\n"));
  ProcessResult validate = Run({"validate", yaml});
  EXPECT_EQ(validate.exit_code, 0) << validate.err;
  ProcessResult list = Run({"list", "--spec-dir", out_dir_});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(Lines(list.out), SeventeenNames());
}

TEST_F(CliTest, MalformedCardsYaml) {
  ExpectRefused("cards:\n- index: 0\n  uuid: [GCU-1\n  memoryMiB: 5\n",
                {"bad-cards.yaml", "line"});
}

TEST_F(CliTest, ZeroMemory) {
  ExpectRefused("cards:\n- index: 0\n  uuid: GCU-1\n  memoryMiB: 0\n",
                {"bad-cards.yaml line 4", "memoryMiB"});
}

TEST_F(CliTest, NegativeMemory) {
  ExpectRefused("cards:\n- index: 0\n  uuid: GCU-1\n  memoryMiB: -16\n",
                {"bad-cards.yaml line 4", "memoryMiB"});
}

TEST_F(CliTest, DuplicateIndex) {
  ExpectRefused(
      "cards:\n- index: 1\n  uuid: GCU-1\n  memoryMiB: 5\n"
      "- index: 1\n  uuid: GCU-2\n  memoryMiB: 5\n",
      {"bad-cards.yaml line 5", "index 1"});
}

TEST_F(CliTest, MissingIndex) {
  ExpectRefused("cards:\n- uuid: GCU-1\n  memoryMiB: 5\n",
                {"bad-cards.yaml", "index"});
}

TEST_F(CliTest, UuidThatCannotBeADeviceName) {
  ExpectRefused(
      "cards:\n- index: 0\n  uuid: GCU-1\n  memoryMiB: 5\n"
      "- index: 3\n  uuid: GCU/1\n  memoryMiB: 5\n",
      {"card 3: uuid \"GCU/1\" cannot be a CDI device name: '/' is not "
       "allowed"});
}

TEST_F(CliTest, UuidClashingWithAnIndexName) {
  ExpectRefused(
      "cards:\n- index: 0\n  uuid: \"1\"\n  memoryMiB: 5\n"
      "- index: 1\n  uuid: GCU-2\n  memoryMiB: 5\n",
      {"card 0: uuid \"1\"", "card 1's index device"});
}

TEST_F(CliTest, NoCards) { ExpectRefused("cards: []\n", {"no cards"}); }

TEST_F(CliTest, MissingCardsFile) {
  std::string good = GenerateGoodSpec();
  ProcessResult result = Generate(dir_ + "/missing.yaml");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_THAT(result.err, StartsWith("gcushare-cdi: "));
  EXPECT_THAT(result.err, HasSubstr(dir_ + "/missing.yaml"));
  EXPECT_EQ(ReadFileOrEmpty(spec_), good);
}

TEST_F(CliTest, UnwritableOutputDir) {
  std::string good = GenerateGoodSpec();
  std::string blocker = dir_ + "/not-a-dir";
  WriteFileOrDie(blocker, "x");
  ProcessResult result = Run({"generate", "--fake-cards=" + cards_,
                              "--output-dir=" + blocker + "/cdi"});
  EXPECT_NE(result.exit_code, 0);
  EXPECT_EQ(Lines(result.err).size(), 1u) << result.err;
  EXPECT_THAT(result.err, StartsWith("gcushare-cdi: "));
  EXPECT_THAT(result.err, HasSubstr(blocker + "/cdi"));
  EXPECT_THAT(result.err, HasSubstr("Not a directory"));

  EXPECT_EQ(ReadFileOrEmpty(spec_), good);
  EXPECT_EQ(ReadFileOrEmpty(blocker), "x");
}

TEST_F(CliTest, MissingOutputDirIsCreated) {
  std::string dir = dir_ + "/run/cdi";
  ProcessResult result =
      Run({"generate", "--fake-cards=" + cards_, "--output-dir=" + dir});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "wrote " + dir +
                            "/enflame.com-gcu.json: 8 cards, 17 devices "
                            "(cdiVersion 0.5.0)\n");
}

TEST_F(CliTest, MissingOrBrokenEfmlLibrary) {
  std::string good = GenerateGoodSpec();
  std::string missing = dir_ + "/none/libefml.so";
  ProcessResult result =
      Run({"generate", "--efml-backend=efml", "--efml-library=" + missing,
           "--output-dir=" + out_dir_});
  EXPECT_NE(result.exit_code, 0);
  EXPECT_THAT(result.err, HasSubstr("gcushare-cdi: "));
  EXPECT_THAT(result.err, HasSubstr(missing));

  std::string broken = dir_ + "/libefml.so";
  WriteFileOrDie(broken, "this is not a shared object");
  result = Run({"generate", "--efml-backend=efml", "--efml-library=" + broken,
                "--output-dir=" + out_dir_});
  EXPECT_NE(result.exit_code, 0);
  EXPECT_THAT(result.err, HasSubstr("gcushare-cdi: "));
  EXPECT_THAT(result.err, HasSubstr(broken));
  EXPECT_EQ(ReadFileOrEmpty(spec_), good);
}

TEST_F(CliTest, ValidateReportsFileFieldAndRule) {
  GenerateGoodSpec();
  std::string bad = dir_ + "/bad.json";
  std::string text = ReadFileOrEmpty(spec_);
  size_t at = text.find("\"/dev/gcu2\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 11, "\"dev/gcu2\"");
  WriteFileOrDie(bad, text);

  ProcessResult result = Run({"validate", spec_, bad});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, spec_ +
                            ": valid (cdiVersion 0.5.0, kind enflame.com/gcu, "
                            "17 devices)\n");
  EXPECT_EQ(result.err, "gcushare-cdi: " + bad +
                            ": devices[2].containerEdits.deviceNodes[0].path: "
                            "\"dev/gcu2\" is not an absolute path\n");

  std::string broken = dir_ + "/broken.yaml";
  WriteFileOrDie(broken, "cdiVersion: 0.5.0\nkind: [\n");
  result = Run({"validate", broken});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, StartsWith("gcushare-cdi: " + broken + " line "));

  std::string old = dir_ + "/old.yaml";
  WriteFileOrDie(old,
                 "cdiVersion: \"0.3.0\"\nkind: enflame.com/gcu\ndevices:\n"
                 "- name: \"0\"\n  containerEdits: {env: [A=1]}\n");
  result = Run({"validate", old});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "gcushare-cdi: " + old +
                            ": cdiVersion: \"0.3.0\" is too low: 0.5.0 is "
                            "needed because devices[0].name \"0\" does not "
                            "start with a letter\n");
}

TEST_F(CliTest, ListSkipsInvalidSpecsAndFailsAtTheEnd) {
  GenerateGoodSpec();
  WriteFileOrDie(out_dir_ + "/zz-bad.yaml", "cdiVersion: \"0.5.0\"\n");
  WriteFileOrDie(out_dir_ + "/ignored.yml", "not: read");
  ProcessResult result = Run(
      {"list", "--spec-dir=" + out_dir_, "--spec-dir=" + dir_ + "/missing"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(Lines(result.out), SeventeenNames());
  EXPECT_EQ(result.err,
            "gcushare-cdi: " + out_dir_ + "/zz-bad.yaml: kind: is required\n");
}

TEST_F(CliTest, UsageErrorsExitTwo) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{
           {},
           {"validate"},
           {"frobnicate"},
           {"generate", "--no-such-flag"},
           {"generate", "--format=yml"},
           {"generate", "--efml-backend=magic"},
           {"generate", "--scan-memory-mib=-1"},
           {"--log-level=loud", "list"}}) {
    ProcessResult result = Run(args);
    EXPECT_EQ(result.exit_code, 2) << ::testing::PrintToString(args);
    EXPECT_THAT(result.err, StartsWith("gcushare-cdi: "))
        << ::testing::PrintToString(args);
  }
}

TEST_F(CliTest, HelpMentionsEveryFlag) {
  ProcessResult help = Run({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  for (const char* flag :
       {"--help", "--version", "--log-level", "--log-dir", "generate", "list",
        "validate", "--efml-backend", "--fake-cards", "--efml-library",
        "--scan-root", "--scan-memory-mib", "--output-dir", "--format",
        "--spec-dir", "FILE"}) {
    EXPECT_THAT(help.out, HasSubstr(flag)) << flag;
  }
  ProcessResult generate_help = Run({"generate", "--help"});
  EXPECT_EQ(generate_help.exit_code, 0);
  for (const char* flag :
       {"--efml-backend", "--fake-cards", "--efml-library", "--scan-root",
        "--scan-memory-mib", "--output-dir", "--format"}) {
    EXPECT_THAT(generate_help.out, HasSubstr(flag)) << flag;
  }
  EXPECT_THAT(generate_help.out, ::testing::Not(HasSubstr("--spec-dir")));
}

TEST_F(CliTest, Version) {
  ProcessResult result = Run({"--version"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_TRUE(std::regex_match(
      result.out, std::regex("gcushare-cdi [0-9]+\\.[0-9]+\\.[0-9]+\n")))
      << result.out;
}

TEST_F(CliTest, LogLevelAfterTheSubcommandIsAccepted) {
  ProcessResult result = Run({"validate", "--log-level=error", "/nonexistent"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "gcushare-cdi: cannot read /nonexistent: No such file or "
            "directory\n");
}

}  // namespace
}  // namespace gcushare
