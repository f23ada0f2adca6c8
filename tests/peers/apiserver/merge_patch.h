// JSON merge patch, RFC 7386 (Content-Type application/merge-patch+json).
//
// An object patch merges key by key into the target (a non-object target is
// first replaced by {}); a null value deletes the key; any other value,
// including an array, replaces the target's value wholesale. A non-object
// patch replaces the whole target.
//
// Thread-safety: a pure function. Failure: none (every JSON patch is a valid
// merge patch); the HTTP layer rejects non-object bodies itself.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_MERGE_PATCH_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_MERGE_PATCH_H_

#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {

Json ApplyMergePatch(const Json& target, const Json& patch);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_MERGE_PATCH_H_
