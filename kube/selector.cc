#include "kube/selector.h"

#include <utility>

namespace gcushare::kube {
namespace {

std::string Trim(std::string_view text) {
  const auto begin = text.find_first_not_of(' ');
  if (begin == std::string_view::npos) return "";
  const auto end = text.find_last_not_of(' ');
  return std::string(text.substr(begin, end - begin + 1));
}

std::vector<std::string> SplitPath(const std::string& path) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    parts.push_back(path.substr(start, dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

// The string form of the field at `path`, or nullopt-like false.
bool ValueAt(const nlohmann::json& object, const std::vector<std::string>& path,
             std::string* value) {
  const nlohmann::json* node = &object;
  for (const std::string& key : path) {
    if (!node->is_object()) return false;
    auto it = node->find(key);
    if (it == node->end()) return false;
    node = &*it;
  }
  if (node->is_string()) {
    *value = node->get<std::string>();
  } else if (node->is_null()) {
    return false;
  } else {
    *value = node->dump();  // true/false/numbers as written.
  }
  return true;
}

}  // namespace

StatusOr<Selector> Selector::ParseLabels(std::string_view text) {
  return Parse(text, /*labels=*/true);
}

StatusOr<Selector> Selector::ParseFields(std::string_view text) {
  return Parse(text, /*labels=*/false);
}

StatusOr<Selector> Selector::Parse(std::string_view text, bool labels) {
  Selector selector;
  const std::string kind = labels ? "label selector" : "field selector";
  size_t start = 0;
  const std::string all(text);
  const std::string where = kind + " \"" + all + "\"";
  while (start <= all.size() && !Trim(all).empty()) {
    const size_t comma = all.find(',', start);
    const std::string term = Trim(all.substr(
        start, comma == std::string::npos ? std::string::npos : comma - start));
    start = comma == std::string::npos ? all.size() + 1 : comma + 1;
    if (term.empty()) continue;
    StatusOr<Term> parsed = ParseTerm(term, labels, where);
    if (!parsed.ok()) return parsed.status();
    selector.terms_.push_back(std::move(*parsed));
  }
  return selector;
}

StatusOr<Selector::Term> Selector::ParseTerm(const std::string& term,
                                             bool labels,
                                             const std::string& where) {
  if (term.find(" in ") != std::string::npos ||
      term.find(" notin ") != std::string::npos ||
      term.find('(') != std::string::npos) {
    return InvalidArgumentError(where + ": set-based terms are not supported");
  }
  Term parsed;
  std::string key;
  size_t op_at = term.find("!=");
  if (op_at != std::string::npos) {
    parsed.op = Op::kNotEquals;
    key = term.substr(0, op_at);
    parsed.value = Trim(term.substr(op_at + 2));
  } else if ((op_at = term.find("==")) != std::string::npos) {
    parsed.op = Op::kEquals;
    key = term.substr(0, op_at);
    parsed.value = Trim(term.substr(op_at + 2));
  } else if ((op_at = term.find('=')) != std::string::npos) {
    parsed.op = Op::kEquals;
    key = term.substr(0, op_at);
    parsed.value = Trim(term.substr(op_at + 1));
  } else if (labels && term[0] == '!') {
    parsed.op = Op::kNotExists;
    key = term.substr(1);
  } else if (labels) {
    parsed.op = Op::kExists;
    key = term;
  } else {
    return InvalidArgumentError(where + ": term \"" + term +
                                "\" has no operator");
  }
  key = Trim(key);
  if (key.empty()) return InvalidArgumentError(where + ": empty key");
  parsed.missing_is_empty = !labels;
  parsed.path = labels ? std::vector<std::string>{"metadata", "labels", key}
                       : SplitPath(key);
  return parsed;
}

bool Selector::Matches(const nlohmann::json& object) const {
  for (const Term& term : terms_) {
    std::string value;
    bool present = ValueAt(object, term.path, &value);
    if (!present && term.missing_is_empty) present = true;
    switch (term.op) {
      case Op::kEquals:
        if (!present || value != term.value) return false;
        break;
      case Op::kNotEquals:
        if (present && value == term.value) return false;
        break;
      case Op::kExists:
        if (!present) return false;
        break;
      case Op::kNotExists:
        if (present) return false;
        break;
    }
  }
  return true;
}

}  // namespace gcushare::kube
