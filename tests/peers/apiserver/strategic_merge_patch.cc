#include "tests/peers/apiserver/strategic_merge_patch.h"

#include <string_view>
#include <utility>
#include <vector>

namespace gcushare::apiserver {
namespace {

constexpr std::string_view kPatchDirective = "$patch";
constexpr std::string_view kRetainKeys = "$retainKeys";
constexpr std::string_view kDeleteFromPrimitiveList =
    "$deleteFromPrimitiveList/";
constexpr std::string_view kSetElementOrder = "$setElementOrder/";

std::string Child(const std::string& path, const std::string& field) {
  return path.empty() ? field : path + "/" + field;
}

// Go's %v of a decoded JSON value, for the real error message.
std::string GoValue(const Json& v) {
  if (v.is_object()) {
    std::map<std::string, const Json*> sorted;
    for (auto it = v.begin(); it != v.end(); ++it) {
      sorted[it.key()] = &it.value();
    }
    std::string out = "map[";
    bool first = true;
    for (const auto& [k, child] : sorted) {
      if (!first) out += " ";
      first = false;
      out += k + ":" + GoValue(*child);
    }
    return out + "]";
  }
  if (v.is_array()) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out += " ";
      out += GoValue(v[i]);
    }
    return out + "]";
  }
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "<nil>";
  return DumpJson(v);
}

bool IsDirectiveKey(const std::string& key) {
  return key == kPatchDirective || key == kRetainKeys ||
         key.rfind(kDeleteFromPrimitiveList, 0) == 0 ||
         key.rfind(kSetElementOrder, 0) == 0;
}

// A patch value placed where the original has nothing: directives and
// nulls are dropped, merge-keyed elements marked for deletion vanish.
Json Clean(const Json& v) {
  if (v.is_object()) {
    Json out = Json::object();
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (IsDirectiveKey(it.key()) || it.value().is_null()) continue;
      out[it.key()] = Clean(it.value());
    }
    return out;
  }
  if (v.is_array()) {
    Json out = Json::array();
    for (const Json& e : v) {
      if (e.is_object()) {
        auto p = e.find(kPatchDirective);
        if (p != e.end() && p->is_string() &&
            (*p == "delete" || *p == "replace")) {
          continue;
        }
      }
      out.push_back(Clean(e));
    }
    return out;
  }
  return v;
}

class Merger {
 public:
  explicit Merger(const MergeSchema& schema) : schema_(schema) {}

  // Merges patch map `patch` into `original` (which may be any value).
  StatusOr<Json> MergeMap(const Json& original, const Json& patch,
                          const std::string& path) {
    auto directive = patch.find(kPatchDirective);
    if (directive != patch.end()) {
      if (*directive == "replace") return Clean(patch);
      if (*directive == "delete") return Json();  // Caller drops the key.
      if (*directive != "merge") {
        return InvalidArgumentError(
            "Unknown patch type: " + GoValue(*directive) +
            " in map: " + GoValue(patch));
      }
    }
    Json result = original.is_object() ? original : Json::object();
    // $retainKeys first: it trims the original.
    auto retain = patch.find(kRetainKeys);
    if (retain != patch.end()) {
      if (!retain->is_array()) {
        return InvalidArgumentError(
            "invalid patch: $retainKeys must be a list of strings");
      }
      Json kept = Json::object();
      for (auto it = result.begin(); it != result.end(); ++it) {
        for (const Json& k : *retain) {
          if (k.is_string() && k.get<std::string>() == it.key()) {
            kept[it.key()] = it.value();
            break;
          }
        }
      }
      result = std::move(kept);
    }
    // Then deletions from primitive lists.
    for (auto it = patch.begin(); it != patch.end(); ++it) {
      if (it.key().rfind(kDeleteFromPrimitiveList, 0) != 0) continue;
      std::string field = it.key().substr(kDeleteFromPrimitiveList.size());
      if (!it.value().is_array()) {
        return InvalidArgumentError(
            "invalid patch: $deleteFromPrimitiveList must be a list");
      }
      auto target = result.find(field);
      if (target == result.end() || !target->is_array()) continue;
      Json kept = Json::array();
      for (const Json& e : *target) {
        bool drop = false;
        for (const Json& d : it.value()) drop = drop || d == e;
        if (!drop) kept.push_back(e);
      }
      *target = std::move(kept);
    }
    for (auto it = patch.begin(); it != patch.end(); ++it) {
      const std::string& key = it.key();
      if (IsDirectiveKey(key)) continue;
      const Json& value = it.value();
      if (value.is_null()) {
        result.erase(key);
        continue;
      }
      auto existing = result.find(key);
      std::string child = Child(path, key);
      if (existing == result.end()) {
        Json cleaned = Clean(value);
        result[key] = std::move(cleaned);
        continue;
      }
      if (value.is_object() && existing->is_object()) {
        GCUSHARE_ASSIGN_OR_RETURN(Json merged,
                                  MergeMap(*existing, value, child));
        if (merged.is_null()) {
          result.erase(key);
        } else {
          *existing = std::move(merged);
        }
        continue;
      }
      if (value.is_object()) {
        auto d = value.find(kPatchDirective);
        if (d != value.end() && *d == "delete") {
          result.erase(key);
          continue;
        }
      }
      if (value.is_array() && existing->is_array()) {
        GCUSHARE_ASSIGN_OR_RETURN(*existing,
                                  MergeList(*existing, value, child));
        continue;
      }
      *existing = Clean(value);
    }
    return result;
  }

 private:
  StatusOr<Json> MergeList(const Json& original, const Json& patch,
                           const std::string& path) {
    auto strategy = schema_.find(path);
    if (strategy == schema_.end()) return Clean(patch);
    const std::string& key = strategy->second.merge_key;
    if (key.empty()) {
      // A set of scalars: union, original order first.
      Json result = original;
      for (const Json& e : patch) {
        bool present = false;
        for (const Json& o : result) present = present || o == e;
        if (!present) result.push_back(e);
      }
      return result;
    }
    // `{"$patch": "replace"}` anywhere: the rest of the patch is the list.
    for (const Json& e : patch) {
      if (e.is_object() && e.size() == 1 && e.contains(kPatchDirective) &&
          e[std::string(kPatchDirective)] == "replace") {
        return Clean(patch);
      }
    }
    Json result = original;
    const std::string element_path = path + "/*";
    for (const Json& e : patch) {
      if (!e.is_object()) {
        return InternalError("map: " + GoValue(e) +
                             " does not contain declared merge key: " + key);
      }
      auto k = e.find(key);
      if (k == e.end()) {
        return InternalError("map: " + GoValue(e) +
                             " does not contain declared merge key: " + key);
      }
      auto directive = e.find(kPatchDirective);
      bool remove = directive != e.end() && *directive == "delete";
      bool found = false;
      for (size_t i = 0; i < result.size(); ++i) {
        const Json& o = result[i];
        if (!o.is_object()) continue;
        auto ok = o.find(key);
        if (ok == o.end() || *ok != *k) continue;
        found = true;
        if (remove) {
          result.erase(result.begin() + static_cast<std::ptrdiff_t>(i));
          --i;
          continue;
        }
        GCUSHARE_ASSIGN_OR_RETURN(Json merged, MergeMap(o, e, element_path));
        result[i] = std::move(merged);
        break;
      }
      if (!found && !remove) result.push_back(Clean(e));
    }
    return result;
  }

  const MergeSchema& schema_;
};

}  // namespace

StatusOr<Json> ApplyStrategicMergePatch(const Json& original, const Json& patch,
                                        const MergeSchema& schema) {
  if (!patch.is_object()) {
    return InvalidArgumentError(
        "json: cannot unmarshal " + std::string(patch.type_name()) +
        " into Go value of type map[string]interface {}");
  }
  Merger merger(schema);
  GCUSHARE_ASSIGN_OR_RETURN(Json result, merger.MergeMap(original, patch, ""));
  if (result.is_null()) result = Json::object();
  return result;
}

}  // namespace gcushare::apiserver
