#include "cdi/parser.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <exception>
#include <string>

#include "cdi/yaml_tree.h"

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;

// Spec files are small; refuse anything absurd rather than reading it all.
constexpr size_t kMaxSpecBytes = 16 * 1024 * 1024;

// 1-based line of byte offset `offset` (0-based) in `text`.
int LineAt(std::string_view text, size_t offset) {
  if (offset > text.size()) offset = text.size();
  int line = 1;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') ++line;
  }
  return line;
}

// nlohmann's message without its "[json.exception.parse_error.101] " tag.
std::string WithoutExceptionTag(const char* what) {
  std::string message = what;
  if (!message.empty() && message.front() == '[') {
    size_t end = message.find("] ");
    if (end != std::string::npos) message.erase(0, end + 2);
  }
  return message;
}

StatusOr<Json> ParseJson(std::string_view text, std::string_view file_name) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    // e.byte is the 1-based offset of the offending byte.
    size_t offset = e.byte == 0 ? 0 : e.byte - 1;
    return InvalidArgumentError(
        std::string(file_name) + " line " +
        std::to_string(LineAt(text, offset)) +
        ": invalid JSON: " + WithoutExceptionTag(e.what()));
  } catch (const std::exception& e) {
    return InvalidArgumentError(std::string(file_name) + ": invalid JSON: " +
                                WithoutExceptionTag(e.what()));
  }
}

}  // namespace

StatusOr<Json> ParseSpecText(std::string_view text,
                             std::string_view file_name) {
  std::string_view rest = text;
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (rest.substr(0, kBom.size()) == kBom) rest.remove_prefix(kBom.size());
  size_t first = rest.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    return InvalidArgumentError(std::string(file_name) +
                                " line 1: the file is empty");
  }
  if (rest[first] == '{') return ParseJson(text, file_name);
  return YamlToJson(text, file_name);
}

StatusOr<Json> ReadSpecFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoToStatus(errno, "cannot read " + path);
  std::string text;
  char buffer[16384];
  Status status;
  while (true) {
    ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0) {
      if (errno == EINTR) continue;
      status = ErrnoToStatus(errno, "cannot read " + path);
      break;
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
    if (text.size() > kMaxSpecBytes) {
      status = InvalidArgumentError(path + ": larger than " +
                                    std::to_string(kMaxSpecBytes) +
                                    " bytes; not a CDI spec");
      break;
    }
  }
  ::close(fd);
  if (!status.ok()) return status;
  return ParseSpecText(text, path);
}

std::string ToYaml(const Json& tree) { return JsonToYaml(tree); }

}  // namespace gcushare::cdi
