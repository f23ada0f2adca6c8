#include "tests/peers/apiserver/merge_patch.h"

namespace gcushare::apiserver {

Json ApplyMergePatch(const Json& target, const Json& patch) {
  if (!patch.is_object()) return patch;
  Json result = target.is_object() ? target : Json::object();
  for (auto it = patch.begin(); it != patch.end(); ++it) {
    if (it.value().is_null()) {
      result.erase(it.key());
      continue;
    }
    auto existing = result.find(it.key());
    if (existing == result.end()) {
      result[it.key()] = ApplyMergePatch(Json(), it.value());
    } else {
      *existing = ApplyMergePatch(*existing, it.value());
    }
  }
  return result;
}

}  // namespace gcushare::apiserver
