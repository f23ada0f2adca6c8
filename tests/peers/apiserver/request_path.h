// Maps a request path onto the resource it addresses, the way the real
// server's routes do:
//   /api/v1/<resource>[/<name>[/<subresource>]]         cluster-scoped kinds,
//                                                       or the all-namespace
//                                                       collection of
//                                                       namespaced ones
//   /api/v1/namespaces/<ns>/<resource>[/<name>[/<sub>]] namespaced kinds
//   /api/v1/namespaces/<ns>/bindings                    Binding by body name
//   /api/v1/watch/...                                   the legacy watch form
//   /apis/<group>/<version>/... the same forms (watch included, bindings
//                               excepted) for the kinds of named groups
// Subresources: pods/status, pods/binding, nodes/status.
//
// Failure: nullopt for any other path (the caller answers 404).
// Thread-safety: pure function; the returned kind points into the catalog.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_REQUEST_PATH_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_REQUEST_PATH_H_

#include <optional>
#include <string>
#include <string_view>

#include "tests/peers/apiserver/resource_kind.h"

namespace gcushare::apiserver {

struct ApiPath {
  const ResourceKind* kind = nullptr;
  std::string ns;             // Empty for cluster scope or all namespaces.
  std::string name;           // Empty for a collection.
  std::string subresource;    // "", "status" or "binding".
  bool legacy_watch = false;  // Under /api/v1/watch/.
  bool bindings_collection = false;  // /api/v1/namespaces/<ns>/bindings.

  bool collection() const { return name.empty(); }
};

std::optional<ApiPath> ParseApiPath(std::string_view path,
                                    const ResourceCatalog& catalog);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_REQUEST_PATH_H_
