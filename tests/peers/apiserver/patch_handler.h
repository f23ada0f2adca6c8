// PATCH of an object or its /status, with the four patch types of the real
// server, chosen by Content-Type (parameters such as charset ignored):
//   application/merge-patch+json           RFC 7386
//   application/strategic-merge-patch+json strategic merge (type's schema)
//   application/json-patch+json            RFC 6902
//   application/apply-patch+yaml           server-side apply, SIMPLIFIED: the
//       YAML document is applied as a strategic merge patch (no field
//       ownership, no managedFields, no removal of fields a manager stopped
//       applying); it needs ?fieldManager= and creates a missing object.
// Anything else: 415 (message "415: Unsupported Media Type", as go-restful
// answers before the handler runs).
//
// After patching, metadata.resourceVersion acts as a precondition (stale:
// 409 Conflict), the name and namespace must still match the URL (400), and
// the type's update strategy applies (the main resource keeps its status;
// /status keeps everything but status and metadata).
// Errors follow the real handler: an unparsable merge patch is 400 "Invalid
// JSON Patch", a JSON patch operation that does not apply is 422 with the
// generic message "the server rejected our request due to an error in our
// request", an apply without fieldManager is 422 `PatchOptions.meta.k8s.io
// "" is invalid: fieldManager: Required value: is required for apply patch`,
// a strategic list element without its merge key is a 500. A missing object
// is 404 (except for apply).
//
// Thread-safety: thread-safe.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_PATCH_HANDLER_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_PATCH_HANDLER_H_

#include <httplib.h>

#include "tests/peers/apiserver/handler_context.h"
#include "tests/peers/apiserver/request_path.h"

namespace gcushare::apiserver {

class PatchHandler {
 public:
  explicit PatchHandler(HandlerContext ctx) : ctx_(ctx) {}

  void Patch(const ApiPath& path, const httplib::Request& req,
             httplib::Response& res);

 private:
  // Server-side apply of `patch` to an object that does not exist yet.
  void CreateByApply(const ApiPath& path, const Json& patch,
                     httplib::Response& res);

  HandlerContext ctx_;
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_PATCH_HANDLER_H_
