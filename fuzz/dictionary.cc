#include "fuzz/dictionary.h"

#include <cstddef>

namespace gcushare::fuzz {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The token of one non-blank, non-comment line.
StatusOr<std::string> ParseLine(std::string_view line) {
  const size_t open = line.find('"');
  const size_t close = line.rfind('"');
  if (open == std::string_view::npos || close == open) {
    return InvalidArgumentError("expected a quoted token");
  }
  for (char c : line.substr(close + 1)) {
    if (c != ' ' && c != '\t' && c != '\r') {
      return InvalidArgumentError("text after the closing quote");
    }
  }
  const std::string_view body = line.substr(open + 1, close - open - 1);
  std::string token;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') {
      token.push_back(body[i]);
      continue;
    }
    if (i + 1 >= body.size()) return InvalidArgumentError("dangling \\");
    const char next = body[++i];
    if (next == '\\' || next == '"') {
      token.push_back(next);
    } else if (next == 'x' && i + 2 < body.size() &&
               HexDigit(body[i + 1]) >= 0 && HexDigit(body[i + 2]) >= 0) {
      token.push_back(static_cast<char>(HexDigit(body[i + 1]) * 16 +
                                        HexDigit(body[i + 2])));
      i += 2;
    } else {
      return InvalidArgumentError("bad escape \\" + std::string(1, next));
    }
  }
  return token;
}

}  // namespace

StatusOr<std::vector<std::string>> ParseDictionary(std::string_view text) {
  std::vector<std::string> tokens;
  size_t line_number = 0;
  while (!text.empty()) {
    ++line_number;
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view()
                                         : text.substr(end + 1);
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#') continue;
    StatusOr<std::string> token = ParseLine(line.substr(first));
    if (!token.ok()) {
      return InvalidArgumentError("line " + std::to_string(line_number) + ": " +
                                  token.status().message());
    }
    tokens.push_back(*std::move(token));
  }
  return tokens;
}

}  // namespace gcushare::fuzz
