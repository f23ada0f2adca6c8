#include "json/bounded_parse.h"

#include <algorithm>
#include <string>

namespace gcushare::json {

int JsonNestingDepth(std::string_view text, int stop_after) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // The escaped character cannot end the string.
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > stop_after) return deepest;
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    }
  }
  return deepest;
}

StatusOr<nlohmann::json> ParseJson(std::string_view text, std::string_view what,
                                   int max_depth) {
  if (JsonNestingDepth(text, max_depth) > max_depth) {
    return InvalidArgumentError(std::string(what) + ": nested deeper than " +
                                std::to_string(max_depth) + " levels");
  }
  nlohmann::json parsed =
      nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    return InvalidArgumentError(std::string(what) + ": malformed JSON");
  }
  return parsed;
}

Status CheckYamlDepth(std::string_view text, std::string_view what,
                      int max_depth) {
  int flow = 0;  // Open [ and { (they may span lines).
  bool at_line_start = true;
  int line_depth = 0;  // Indentation plus compact "- " / "? " entries.
  char quote = 0;      // Inside a quoted scalar: its quote character.
  bool comment = false;
  auto too_deep = [&] {
    return InvalidArgumentError(std::string(what) +
                                ": YAML nested deeper than " +
                                std::to_string(max_depth) + " levels");
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      at_line_start = true;
      line_depth = 0;
      comment = false;
      continue;
    }
    if (comment) continue;
    if (quote != 0) {
      if (quote == '"' && c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    if (at_line_start) {
      if (c == ' ' || c == '\t') {
        ++line_depth;
      } else if ((c == '-' || c == '?') && i + 1 < text.size() &&
                 (text[i + 1] == ' ' || text[i + 1] == '\t')) {
        ++line_depth;
      } else {
        at_line_start = false;
      }
      if (line_depth + flow > max_depth) return too_deep();
      if (at_line_start) continue;
    }
    // A quote opens a quoted scalar, and # a comment, only where a token
    // starts; elsewhere they are part of a plain scalar (over-counting the
    // brackets that follow is safe, under-counting is not).
    const char prev = i == 0 ? ' ' : text[i - 1];
    const bool token_start = prev == ' ' || prev == '\t' || prev == '[' ||
                             prev == '{' || prev == ',' || prev == ':' ||
                             prev == '-' || prev == '?' || prev == '\n';
    if (c == '#' && (prev == ' ' || prev == '\t' || prev == '\n')) {
      comment = true;
    } else if ((c == '"' || c == '\'') && token_start) {
      quote = c;
    } else if (c == '[' || c == '{') {
      if (++flow + line_depth > max_depth) return too_deep();
    } else if ((c == ']' || c == '}') && flow > 0) {
      --flow;
    }
  }
  return OkStatus();
}

}  // namespace gcushare::json
