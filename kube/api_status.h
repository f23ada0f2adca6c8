// Turns API server failures into Status values (docs/protocols.md 3.4).
//
// The API server answers errors with a meta/v1 Status object:
// {"kind":"Status","status":"Failure","reason":"Conflict","message":"...",
//  "code":409,...}. The Status we return has:
//   - code from the HTTP code: 400 InvalidArgument, 401 Unauthenticated,
//     403 PermissionDenied, 404 NotFound, 409 AlreadyExists when the reason
//     is AlreadyExists else Aborted, 410 OutOfRange, 422 InvalidArgument,
//     429 ResourceExhausted, 5xx Unavailable (others: see StatusCodeForHttp);
//   - message "<reason>: <message>", e.g.
//     `Conflict: pod p1 is already assigned to node "n1"`;
//   - http_code() set to the HTTP code.
// A body that is not a Status object still gives a clear message:
// "HTTP 502: <start of the body>".
//
// Pure functions; thread-safe; never throw.
#ifndef GCUSHARE_KUBE_API_STATUS_H_
#define GCUSHARE_KUBE_API_STATUS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "status/status.h"

namespace gcushare::kube {

StatusCode StatusCodeForHttp(int http_code, std::string_view reason);

// The error for a non-2xx response.
Status StatusFromHttpResponse(int http_code, std::string_view body);

// The error carried by a Status object (e.g. a watch ERROR event), with
// http_code() from its "code" field, or `fallback_http_code` when absent.
Status StatusFromApiStatus(const nlohmann::json& status,
                           int fallback_http_code);

// details.retryAfterSeconds of a Status object in `body`, if any.
std::optional<int> RetryAfterSecondsFromBody(std::string_view body);

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_API_STATUS_H_
