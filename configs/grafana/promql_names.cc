#include "configs/grafana/promql_names.h"

#include <cctype>
#include <sstream>

namespace gcushare::grafana {
namespace {

bool IdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':';
}
bool IdentPart(char c) {
  return IdentStart(c) || std::isdigit(static_cast<unsigned char>(c));
}

// `expr` without string literals, {...}, [...] and Grafana variables.
std::string Strip(std::string_view expr) {
  std::string out;
  char close = 0;  // Inside {...} or [...] when set.
  for (size_t i = 0; i < expr.size(); ++i) {
    const char c = expr[i];
    if (c == '"' || c == '\'' || c == '`') {
      size_t end = i + 1;
      while (end < expr.size() && expr[end] != c) {
        if (expr[end] == '\\' && c != '`') ++end;
        ++end;
      }
      i = end;
      out += ' ';
      continue;
    }
    if (close != 0) {
      if (c == close) close = 0;
      continue;
    }
    if (c == '{') {
      close = '}';
      out += ' ';
    } else if (c == '[') {
      close = ']';
      out += ' ';
    } else if (c == '$') {
      size_t end = i + 1;
      if (end < expr.size() && expr[end] == '{') {
        while (end < expr.size() && expr[end] != '}') ++end;
      } else {
        while (end < expr.size() && IdentPart(expr[end])) ++end;
        --end;
      }
      i = end;
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// The identifier starting at `at` ("" if none).
std::string NextWord(const std::string& s, size_t at) {
  size_t end = at;
  while (end < s.size() && IdentPart(s[end])) ++end;
  return at < s.size() && IdentStart(s[at]) ? s.substr(at, end - at) : "";
}

bool IsKeyword(const std::string& word) {
  static const std::set<std::string> kKeywords = {
      "bool",  "offset", "and", "or",  "unless",
      "atan2", "inf",    "nan", "Inf", "NaN"};
  return kKeywords.count(word) > 0;
}

bool TakesLabelList(const std::string& word) {
  static const std::set<std::string> kClauses = {
      "by", "without", "on", "ignoring", "group_left", "group_right"};
  return kClauses.count(word) > 0;
}

}  // namespace

std::set<std::string> MetricNames(std::string_view expr) {
  const std::string s = Strip(expr);
  std::set<std::string> names;
  size_t i = 0;
  auto skip_space = [&](size_t at) {
    while (at < s.size() && std::isspace(static_cast<unsigned char>(s[at]))) {
      ++at;
    }
    return at;
  };
  while (i < s.size()) {
    const char c = s[i];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      while (i < s.size() && (IdentPart(s[i]) || s[i] == '.')) ++i;
      continue;
    }
    if (!IdentStart(c)) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < s.size() && IdentPart(s[end])) ++end;
    const std::string word = s.substr(i, end - i);
    size_t next = skip_space(end);
    if (TakesLabelList(word)) {
      if (next < s.size() && s[next] == '(') {
        size_t close = s.find(')', next);
        end = close == std::string::npos ? s.size() : close + 1;
      }
    } else if (next < s.size() && s[next] == '(') {
      // A function or aggregation.
    } else if (NextWord(s, next) == "by" || NextWord(s, next) == "without") {
      // An aggregation with its clause first: sum by (x) (...).
    } else if (!IsKeyword(word)) {
      names.insert(word);
    }
    i = end;
  }
  return names;
}

std::set<std::string> ExposedNames(std::string_view exposition) {
  std::set<std::string> names;
  std::istringstream in{std::string(exposition)};
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string hash, kind, name, type;
    if (!(words >> hash >> kind >> name >> type)) continue;
    if (hash != "#" || kind != "TYPE") continue;
    names.insert(name);
    if (type == "histogram" || type == "summary") {
      names.insert(name + "_sum");
      names.insert(name + "_count");
      if (type == "histogram") names.insert(name + "_bucket");
    }
  }
  return names;
}

}  // namespace gcushare::grafana
