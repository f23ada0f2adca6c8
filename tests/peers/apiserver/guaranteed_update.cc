#include "tests/peers/apiserver/guaranteed_update.h"

#include <utility>

namespace gcushare::apiserver {

ApiResult<ObjectPtr> GuaranteedUpdate(ObjectStore& store,
                                      const ResourceKind& kind,
                                      const std::string& key,
                                      const std::string& name,
                                      const MutateFn& mutate) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    auto current = store.Get(kind.resource, key);
    if (!current.ok()) return NotFoundStatus(kind.qualified_resource(), name);
    ApiResult<Json> updated = mutate(**current);
    if (!updated.ok()) return updated.error();
    auto written = store.Replace(kind.resource, key, std::move(updated).value(),
                                 (*current)->rv);
    if (written.ok()) return *written;
    switch (written.status().code()) {
      case StatusCode::kAborted:
        continue;  // Changed since read: re-read and re-apply.
      case StatusCode::kNotFound:
        return NotFoundStatus(kind.qualified_resource(), name);
      default:
        return ApiStatus::Failure(
            500, "InternalError",
            "Internal error occurred: " + written.status().message());
    }
  }
  return ApiStatus::Failure(500, "InternalError",
                            "Internal error occurred: too many concurrent "
                            "updates of " +
                                kind.resource + " " + name);
}

}  // namespace gcushare::apiserver
