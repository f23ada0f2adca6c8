// Kubernetes strategic merge patch (Content-Type
// application/strategic-merge-patch+json), for the built-in types this
// server stores.
//
// Maps merge key by key and `null` deletes, as in a JSON merge patch. Lists
// follow the field's patch strategy from the Go types (given here as a
// MergeSchema):
//   - lists with a merge key (containers by name, ports by containerPort,
//     conditions by type, ...) merge element by element: a patch element
//     whose key matches an original element is merged into it, others are
//     appended, and `{"<key>": k, "$patch": "delete"}` removes the element;
//     an element `{"$patch": "replace"}` makes the rest of the patch list
//     replace the original list;
//   - lists of scalars with strategy merge (finalizers) become the union;
//     `$deleteFromPrimitiveList/<field>: [...]` removes values from them;
//   - every other list (tolerations, taints, command, ...) is replaced.
// In maps, `$patch: replace` replaces the map, `$patch: delete` removes it,
// and `$retainKeys: [...]` drops original keys not listed. The ordering
// directive `$setElementOrder/<field>` is accepted and ignored.
//
// Failure: InvalidArgument for a malformed directive (the server answers 400);
// Internal for an element of a merge-keyed list that lacks the key, with the
// real server's message "map: map[...] does not contain declared merge key:
// name" (it answers 500). Thread-safety: a pure function.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_STRATEGIC_MERGE_PATCH_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_STRATEGIC_MERGE_PATCH_H_

#include <map>
#include <string>

#include "status/status.h"
#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {

// How the list at a path merges. Paths run from the object root, fields
// joined by '/', list elements written '*': "spec/containers",
// "spec/containers/*/env". A path absent from the schema is replaced.
struct ListStrategy {
  std::string merge_key;  // Empty: a set of scalars (strategy merge only).
};
using MergeSchema = std::map<std::string, ListStrategy>;

StatusOr<Json> ApplyStrategicMergePatch(const Json& original, const Json& patch,
                                        const MergeSchema& schema);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_STRATEGIC_MERGE_PATCH_H_
