// Converts a YAML document (an apply patch, or a YAML request body) to JSON.
//
// Plain scalars are typed as YAML 1.2's core schema types them (null, ~,
// true/false, integers, floats); quoted scalars stay strings. JSON is YAML, so
// a JSON body converts to itself.
//
// Failure: InvalidArgument with yaml-cpp's message (yaml-cpp exceptions are
// caught). Thread-safety: a pure function.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_YAML_TO_JSON_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_YAML_TO_JSON_H_

#include <string_view>

#include "status/status.h"
#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {

StatusOr<Json> YamlToJson(std::string_view yaml);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_YAML_TO_JSON_H_
