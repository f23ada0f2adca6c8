// The name and namespace checks the real request handlers make before
// storing an object, with their messages:
//   EnsureNamespace (create, binding): an object without a namespace gets
//   the URL's; a cluster-scoped request clears it; a different one is 400
//   "the namespace of the provided object does not match the namespace sent
//   on the request".
//   CheckName (update, patch): 400 "the name of the object (x) does not
//   match the name on the URL (y)" and "the namespace of the object (x) does
//   not match the namespace on the URL (y)".
//
// Thread-safety: pure functions. Failure: the Status to answer with.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_REQUEST_CHECKS_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_REQUEST_CHECKS_H_

#include <optional>
#include <string>

#include "tests/peers/apiserver/api_status.h"
#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {

std::optional<ApiStatus> EnsureNamespace(Json& object,
                                         const std::string& url_namespace);

std::optional<ApiStatus> CheckName(const Json& object,
                                   const std::string& url_name,
                                   const std::string& url_namespace);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_REQUEST_CHECKS_H_
