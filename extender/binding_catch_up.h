// CatchUpBindings: before a replica that has just become the binder makes
// its first binding decision, it makes sure its CardCache counts every
// binding committed before (docs/ha.md "Catching up"). The pod annotations
// the Bindings carried are the truth: a consistent list of the pods
// (resourceVersion "", read from etcd, not a cache) is read, and every
// bound, unfinished GCU pod with a readable assignment that the cache does
// not count yet is reserved as our own bind's reservation would be
// (CardCache::Assume): it stays counted until the watch shows the pod, and
// the watch's record then replaces it.
//
// A pod deleted between the list and the reservation stays counted until
// the process restarts (a conservative error: memory looks used, never
// free). Failure: the list's error; the cache may then hold part of the
// reservations (all of them true). Thread-safe as the cache and client.
#ifndef GCUSHARE_EXTENDER_BINDING_CATCH_UP_H_
#define GCUSHARE_EXTENDER_BINDING_CATCH_UP_H_

#include <cstddef>

#include "extender/card_cache.h"
#include "kube/kube_client.h"
#include "status/status.h"

namespace gcushare::extender {

// Returns how many pods were added to the cache.
StatusOr<size_t> CatchUpBindings(kube::KubeClient* client, CardCache* cache);

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_BINDING_CATCH_UP_H_
