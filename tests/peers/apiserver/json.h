// The JSON value type of the stand-in API server, and the two conversions
// every module needs.
//
// Objects are nlohmann::ordered_json so that keys keep their insertion order:
// responses then list fields in the order the real server's Go structs do
// (kind, apiVersion, metadata, spec, status) and clients' own order survives a
// round trip.
//
// Failure: ParseJson returns InvalidArgument with the parser's message; neither
// function throws. Thread-safety: free functions on values.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_JSON_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_JSON_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::apiserver {

using Json = nlohmann::ordered_json;

// Parses one JSON document (surrounding whitespace allowed).
StatusOr<Json> ParseJson(std::string_view text);

// Equality that ignores the order of object keys (ordered_json's own
// operator== does not).
bool SameJson(const Json& a, const Json& b);

// Compact serialization; invalid UTF-8 in strings is replaced, never thrown.
std::string DumpJson(const Json& value);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_JSON_H_
