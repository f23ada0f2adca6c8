#include "tests/peers/apiserver/json_patch.h"

#include <cctype>
#include <string>
#include <vector>

namespace gcushare::apiserver {
namespace {

StatusOr<std::vector<std::string>> ParsePointer(const std::string& path) {
  std::vector<std::string> tokens;
  if (path.empty()) return tokens;
  if (path[0] != '/') {
    return FailedPreconditionError(
        "JSON pointer must be empty or start with "
        "'/': \"" +
        path + "\"");
  }
  std::string cur;
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      tokens.push_back(cur);
      cur.clear();
      continue;
    }
    if (path[i] == '~') {
      if (i + 1 >= path.size() || (path[i + 1] != '0' && path[i + 1] != '1')) {
        return FailedPreconditionError("invalid escape in JSON pointer \"" +
                                       path + "\"");
      }
      cur += path[i + 1] == '1' ? '/' : '~';
      ++i;
      continue;
    }
    cur += path[i];
  }
  return tokens;
}

// An array index token: digits, no leading zero (except "0" itself).
bool ParseIndex(const std::string& token, size_t* index) {
  if (token.empty() || token.size() > 18) return false;
  if (token.size() > 1 && token[0] == '0') return false;
  size_t v = 0;
  for (char c : token) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    v = v * 10 + static_cast<size_t>(c - '0');
  }
  *index = v;
  return true;
}

// The value at `tokens`, or nullptr.
Json* Find(Json& doc, const std::vector<std::string>& tokens, size_t count) {
  Json* cur = &doc;
  for (size_t i = 0; i < count; ++i) {
    const std::string& t = tokens[i];
    if (cur->is_object()) {
      auto it = cur->find(t);
      if (it == cur->end()) return nullptr;
      cur = &*it;
    } else if (cur->is_array()) {
      size_t index = 0;
      if (!ParseIndex(t, &index) || index >= cur->size()) return nullptr;
      cur = &(*cur)[index];
    } else {
      return nullptr;
    }
  }
  return cur;
}

Status Add(Json& doc, const std::string& path, Json value) {
  GCUSHARE_ASSIGN_OR_RETURN(std::vector<std::string> tokens,
                            ParsePointer(path));
  if (tokens.empty()) {
    doc = std::move(value);
    return OkStatus();
  }
  Json* parent = Find(doc, tokens, tokens.size() - 1);
  if (parent == nullptr) {
    return FailedPreconditionError(
        "add operation does not apply: doc is missing path: \"" + path +
        "\": missing value");
  }
  const std::string& last = tokens.back();
  if (parent->is_object()) {
    (*parent)[last] = std::move(value);
    return OkStatus();
  }
  if (parent->is_array()) {
    if (last == "-") {
      parent->push_back(std::move(value));
      return OkStatus();
    }
    size_t index = 0;
    if (!ParseIndex(last, &index) || index > parent->size()) {
      return FailedPreconditionError("Unable to access invalid index: " + last +
                                     ": invalid index referenced");
    }
    parent->insert(parent->begin() + static_cast<std::ptrdiff_t>(index),
                   std::move(value));
    return OkStatus();
  }
  return FailedPreconditionError(
      "add operation does not apply: doc is missing path: \"" + path +
      "\": missing value");
}

Status Remove(Json& doc, const std::string& path, Json* removed) {
  GCUSHARE_ASSIGN_OR_RETURN(std::vector<std::string> tokens,
                            ParsePointer(path));
  Json* parent =
      tokens.empty() ? nullptr : Find(doc, tokens, tokens.size() - 1);
  const std::string last = tokens.empty() ? "" : tokens.back();
  if (parent != nullptr && parent->is_object()) {
    auto it = parent->find(last);
    if (it != parent->end()) {
      if (removed != nullptr) *removed = std::move(*it);
      parent->erase(it);
      return OkStatus();
    }
  } else if (parent != nullptr && parent->is_array()) {
    size_t index = 0;
    if (ParseIndex(last, &index) && index < parent->size()) {
      if (removed != nullptr) *removed = std::move((*parent)[index]);
      parent->erase(parent->begin() + static_cast<std::ptrdiff_t>(index));
      return OkStatus();
    }
  }
  return FailedPreconditionError("Unable to remove nonexistent key: " + last +
                                 ": missing value");
}

StatusOr<Json> Get(Json& doc, const std::string& path, const char* op) {
  GCUSHARE_ASSIGN_OR_RETURN(std::vector<std::string> tokens,
                            ParsePointer(path));
  Json* found = Find(doc, tokens, tokens.size());
  if (found == nullptr) {
    return FailedPreconditionError(std::string(op) +
                                   " operation does not apply: doc is "
                                   "missing from path: \"" +
                                   path + "\": missing value");
  }
  return *found;
}

Status ApplyOne(Json& doc, const Json& op) {
  if (!op.is_object()) {
    return FailedPreconditionError(
        "Unexpected kind: operation is not an "
        "object");
  }
  auto str = [&](const char* key, std::string* out) {
    auto it = op.find(key);
    if (it == op.end() || !it->is_string()) return false;
    *out = it->get<std::string>();
    return true;
  };
  std::string kind;
  std::string path;
  if (!str("op", &kind)) {
    return FailedPreconditionError("Unexpected kind: ");
  }
  if (!str("path", &path)) {
    return FailedPreconditionError(kind + " operation missing path");
  }
  auto value = op.find("value");
  if (kind == "add" || kind == "replace" || kind == "test") {
    if (value == op.end()) {
      return FailedPreconditionError(kind + " operation missing value");
    }
  }
  if (kind == "add") return Add(doc, path, *value);
  if (kind == "remove") return Remove(doc, path, nullptr);
  if (kind == "replace") {
    GCUSHARE_ASSIGN_OR_RETURN(std::vector<std::string> tokens,
                              ParsePointer(path));
    Json* target = Find(doc, tokens, tokens.size());
    if (target == nullptr) {
      return FailedPreconditionError(
          "replace operation does not apply: doc is missing key: " + path +
          ": missing value");
    }
    *target = *value;
    return OkStatus();
  }
  if (kind == "test") {
    GCUSHARE_ASSIGN_OR_RETURN(std::vector<std::string> tokens,
                              ParsePointer(path));
    Json* target = Find(doc, tokens, tokens.size());
    if (target == nullptr || *target != *value) {
      return FailedPreconditionError("testing value " + path +
                                     " failed: test failed");
    }
    return OkStatus();
  }
  if (kind == "move" || kind == "copy") {
    std::string from;
    if (!str("from", &from)) {
      return FailedPreconditionError(kind + " operation missing from");
    }
    if (kind == "move") {
      if (path.size() > from.size() && path.rfind(from + "/", 0) == 0) {
        return FailedPreconditionError(
            "move operation does not apply: \"from\" is a proper prefix of "
            "\"path\"");
      }
      if (path == from) return OkStatus();
      Json moved;
      Status s = Remove(doc, from, &moved);
      if (!s.ok()) {
        return FailedPreconditionError(
            "move operation does not apply: doc is missing from path: \"" +
            from + "\": missing value");
      }
      return Add(doc, path, std::move(moved));
    }
    GCUSHARE_ASSIGN_OR_RETURN(Json copied, Get(doc, from, "copy"));
    return Add(doc, path, std::move(copied));
  }
  return FailedPreconditionError("Unexpected kind: " + kind);
}

}  // namespace

StatusOr<Json> ApplyJsonPatch(const Json& document, const Json& patch) {
  if (!patch.is_array()) {
    return InvalidArgumentError("json: cannot unmarshal " +
                                std::string(patch.type_name()) +
                                " into Go value of type jsonpatch.Patch");
  }
  Json doc = document;
  for (const Json& op : patch) {
    GCUSHARE_RETURN_IF_ERROR(ApplyOne(doc, op));
  }
  return doc;
}

}  // namespace gcushare::apiserver
