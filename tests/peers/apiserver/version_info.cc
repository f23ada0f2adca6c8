#include "tests/peers/apiserver/version_info.h"

#include <cctype>
#include <vector>

namespace gcushare::apiserver {
namespace {

// kube-apiserver v1.31.0's /version, indented as its WriteRawJSON does.
constexpr char kV1310Json[] = R"({
  "major": "1",
  "minor": "31",
  "gitVersion": "v1.31.0",
  "gitCommit": "9edcffcde5595e8a5b1a35f88c421764e575afce",
  "gitTreeState": "clean",
  "buildDate": "2024-08-13T07:28:49Z",
  "goVersion": "go1.22.5",
  "compiler": "gc",
  "platform": "linux/amd64"
})";

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

StatusOr<std::string> VersionJson(std::string_view git_version) {
  if (git_version == kDefaultKubeVersion) return std::string(kV1310Json);
  const std::string bad = "kube version " + std::string(git_version) +
                          " does not read v<major>.<minor>.<patch>[-<suffix>]";
  if (git_version.size() < 2 || git_version[0] != 'v') {
    return InvalidArgumentError(bad);
  }
  std::string_view rest = git_version.substr(1);
  const size_t dash = rest.find('-');
  std::string_view core = rest.substr(0, dash);
  std::vector<std::string_view> parts;
  while (true) {
    const size_t dot = core.find('.');
    parts.push_back(core.substr(0, dot));
    if (dot == std::string_view::npos) break;
    core = core.substr(dot + 1);
  }
  if (parts.size() != 3) return InvalidArgumentError(bad);
  for (std::string_view p : parts) {
    if (!AllDigits(p) || p.size() > 6) return InvalidArgumentError(bad);
  }
  const std::string major(parts[0]);
  const std::string minor(parts[1]);
  const int minor_number = std::stoi(minor);
  std::string out = "{\n";
  auto field = [&out](const char* key, const std::string& value) {
    if (out.size() > 2) out += ",\n";
    out += "  \"" + std::string(key) + "\": \"" + value + "\"";
  };
  field("major", major);
  field("minor", minor);
  if (major == "1" && minor_number >= 33) {
    field("emulationMajor", major);
    field("emulationMinor", minor);
    field("minCompatibilityMajor", major);
    field("minCompatibilityMinor", std::to_string(minor_number - 1));
  }
  field("gitVersion", std::string(git_version));
  field("gitCommit", std::string(40, '0'));
  field("gitTreeState", "clean");
  field("buildDate", "2026-01-01T00:00:00Z");
  field("goVersion", "go1.25.0");
  field("compiler", "gc");
  field("platform", "linux/amd64");
  out += "\n}";
  return out;
}

}  // namespace gcushare::apiserver
