// Decodes the body of a create, update or binding request into an object of
// the expected kind, failing the way the real server's decoder does:
//   - unparsable body: 400 `the object provided is unrecognized (must be of
//     type Pod): couldn't get version/kind; json parse error: <why>
//     (<first 30 bytes>)`;
//   - another kind: 400 `Node in version "v1" cannot be handled as a Pod:
//     converting (v1.Node) to (core.Pod): unknown conversion`;
//   - another API version: 400 `the API version in the data (apps/v1) does
//     not match the expected API version (v1)`;
//   - metadata, labels or annotations of the wrong JSON type: 400 `Pod in
//     version "v1" cannot be handled as a Pod: json: cannot unmarshal ...`.
// A body whose Content-Type is application/yaml is read as YAML. The result
// carries kind and apiVersion (filled in when absent) in canonical key order.
// The parser's own words (<why>) are nlohmann's, not Go's.
//
// Thread-safety: pure function.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_BODY_DECODER_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_BODY_DECODER_H_

#include <string_view>

#include "tests/peers/apiserver/api_result.h"
#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {

// `api_version` is the kind's ("v1" for core, "resource.k8s.io/v1"...);
// conversion errors name its internal package ("core", "resource",
// "coordination": the group's first label).
ApiResult<Json> DecodeObjectBody(std::string_view body,
                                 std::string_view content_type,
                                 std::string_view expected_kind,
                                 std::string_view api_version = "v1");

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_BODY_DECODER_H_
