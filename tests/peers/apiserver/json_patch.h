// JSON Patch, RFC 6902 (Content-Type application/json-patch+json): a JSON
// array of operations add, remove, replace, move, copy and test, with paths
// in RFC 6901 JSON Pointer syntax (`~1` stands for `/` and `~0` for `~`
// inside a key; `-` appends to an array).
//
// The operations apply in order to a copy of the document; the first failing
// operation (a missing path, an out-of-range index, a failed test) fails the
// whole patch and the document is left untouched.
//
// Failure: InvalidArgument when the patch itself is not an array of operation
// objects (the server answers 400); FailedPrecondition when an operation does
// not apply (the server answers 422). Messages follow the Go json-patch
// library the real server uses. Thread-safety: a pure function.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_JSON_PATCH_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_JSON_PATCH_H_

#include "status/status.h"
#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {

StatusOr<Json> ApplyJsonPatch(const Json& document, const Json& patch);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_JSON_PATCH_H_
