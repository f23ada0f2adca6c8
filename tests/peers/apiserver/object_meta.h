// Reading and writing the standard parts of a stored object: metadata fields,
// the store key, and the key order the real server's Go structs produce.
//
// Thread-safety: pure functions on values. Failure: accessors return "" (or
// null) for absent or mistyped fields; none throws.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_OBJECT_META_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_OBJECT_META_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {

// metadata.<field> when it is a string, else "".
std::string MetaString(const Json& object, std::string_view field);
// metadata.labels, or nullptr when absent.
const Json* MetaLabels(const Json& object);

// The store key: "<namespace>/<name>" for namespaced objects, "<name>"
// otherwise (the order of etcd keys, hence of list items).
std::string StoreKey(std::string_view ns, std::string_view name);

// Sets metadata.resourceVersion (a decimal string).
void SetResourceVersion(Json& object, int64_t rv);
// "12" -> 12; anything else (empty, not a number) -> -1.
int64_t ParseResourceVersion(std::string_view rv);

// Orders keys as the real server serializes them: kind, apiVersion, metadata
// (name, generateName, namespace, selfLink, uid, resourceVersion, generation,
// creationTimestamp, deletionTimestamp, deletionGracePeriodSeconds, labels,
// annotations, ownerReferences, finalizers, managedFields, then any other),
// spec, status, then the remaining top-level keys in their own order.
void CanonicalizeObject(Json& object);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_OBJECT_META_H_
