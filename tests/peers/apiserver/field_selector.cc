#include "tests/peers/apiserver/field_selector.h"

#include <utility>

namespace gcushare::apiserver {
namespace {

// Splits on commas not preceded by a backslash escape.
std::vector<std::string> SplitTerms(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      cur += s[i];
      cur += s[i + 1];
      ++i;
    } else if (s[i] == ',') {
      out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += s[i];
    }
  }
  out.push_back(std::move(cur));
  return out;
}

StatusOr<std::string> Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (i + 1 >= s.size()) {
      return InvalidArgumentError("invalid field selector: \"" + s +
                                  "\": unterminated escape");
    }
    char next = s[++i];
    if (next != '\\' && next != ',' && next != '=') {
      return InvalidArgumentError("invalid field selector: \"" + s +
                                  "\": invalid escape sequence");
    }
    out += next;
  }
  return out;
}

}  // namespace

StatusOr<FieldSelector> FieldSelector::Parse(std::string_view text) {
  FieldSelector selector;
  for (const std::string& term : SplitTerms(text)) {
    if (term.empty()) continue;
    // The first operator wins, trying `!=` and `==` before `=` at each
    // position, as the real parser does.
    size_t pos = std::string::npos;
    std::string op;
    for (size_t i = 0; i < term.size() && pos == std::string::npos; ++i) {
      std::string_view rest = std::string_view(term).substr(i);
      for (const char* candidate : {"!=", "==", "="}) {
        if (rest.rfind(candidate, 0) == 0) {
          pos = i;
          op = candidate;
          break;
        }
      }
    }
    if (pos == std::string::npos) {
      return InvalidArgumentError("invalid selector: '" + std::string(text) +
                                  "'; can't understand '" + term + "'");
    }
    Requirement r;
    r.field = term.substr(0, pos);
    r.equals = op != "!=";
    GCUSHARE_ASSIGN_OR_RETURN(r.value, Unescape(term.substr(pos + op.size())));
    selector.requirements_.push_back(std::move(r));
  }
  return selector;
}

Status FieldSelector::Validate(const FieldSet& supported) const {
  for (const Requirement& r : requirements_) {
    if (supported.count(r.field) == 0) {
      return InvalidArgumentError("field label not supported: " + r.field);
    }
  }
  return OkStatus();
}

bool FieldSelector::Matches(const FieldSet& fields) const {
  for (const Requirement& r : requirements_) {
    auto it = fields.find(r.field);
    const std::string value = it == fields.end() ? "" : it->second;
    if ((value == r.value) != r.equals) return false;
  }
  return true;
}

}  // namespace gcushare::apiserver
