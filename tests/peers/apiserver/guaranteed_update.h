// GuaranteedUpdate: read-modify-write of one stored object, retried while
// the object changes underneath, as the real server's storage layer does.
//
// `mutate` sees the current object and returns the new one, or the Status
// the request must fail with (a stale resourceVersion precondition is the
// mutate function's to report as a Conflict: a retry re-runs it against the
// newer object). The write is a compare-and-swap on the resourceVersion that
// was read.
//
// Failure: 404 NotFound when the object does not exist (or vanishes), the
// mutate function's Status, 500 for store errors (journal I/O) or when the
// object keeps changing for 1000 attempts. Thread-safety: thread-safe (the
// store is).
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_GUARANTEED_UPDATE_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_GUARANTEED_UPDATE_H_

#include <functional>
#include <string>

#include "tests/peers/apiserver/api_result.h"
#include "tests/peers/apiserver/object_store.h"
#include "tests/peers/apiserver/resource_kind.h"

namespace gcushare::apiserver {

using MutateFn = std::function<ApiResult<Json>(const StoredObject& current)>;

ApiResult<ObjectPtr> GuaranteedUpdate(ObjectStore& store,
                                      const ResourceKind& kind,
                                      const std::string& key,
                                      const std::string& name,
                                      const MutateFn& mutate);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_GUARANTEED_UPDATE_H_
