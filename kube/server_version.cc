#include "kube/server_version.h"

#include <cctype>

namespace gcushare::kube {
namespace {

// "26" or "26+" -> 26; -1 otherwise.
int ParseNumber(const nlohmann::json& value) {
  if (!value.is_string()) return -1;
  const std::string& text = value.get_ref<const std::string&>();
  int number = 0;
  size_t digits = 0;
  for (; digits < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[digits]));
       ++digits) {
    if (number > 100000) return -1;
    number = number * 10 + (text[digits] - '0');
  }
  if (digits == 0) return -1;
  const std::string_view rest = std::string_view(text).substr(digits);
  if (!rest.empty() && rest != "+") return -1;
  return number;
}

}  // namespace

StatusOr<ServerVersion> ParseServerVersion(const nlohmann::json& version) {
  if (!version.is_object()) {
    return InvalidArgumentError("/version: not a JSON object");
  }
  ServerVersion parsed;
  for (const char* field : {"major", "minor"}) {
    auto it = version.find(field);
    const int number = it == version.end() ? -1 : ParseNumber(*it);
    if (number < 0) {
      return InvalidArgumentError(std::string("/version: \"") + field +
                                  "\" is missing or not a number");
    }
    (field[1] == 'a' ? parsed.major : parsed.minor) = number;
  }
  auto git = version.find("gitVersion");
  if (git != version.end() && git->is_string()) {
    parsed.git_version = git->get<std::string>();
  }
  return parsed;
}

}  // namespace gcushare::kube
