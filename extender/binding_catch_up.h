// CatchUpBindings: before a replica that has just become the binder makes
// its first binding decision, it makes sure its CardCache counts every
// binding committed before (docs/ha.md "Catching up"). The pod annotations
// the Bindings carried are the truth: the pods are read as they are at
// least at etcd's current revision, and every bound, unfinished GCU pod
// with a readable assignment that the cache does not count yet is reserved
// as our own bind's reservation would be (CardCache::Assume): it stays
// counted until the watch shows the pod, and the watch's record then
// replaces it.
//
// How the pods are read, cheapest first (docs/startup.md has the costs):
//   1. a consistent list of the pods of one small namespace (the
//      extender's own): a quorum read from etcd, whose resourceVersion is
//      etcd's current revision, X;
//   2. every pod with resourceVersion=X and no limit: kube-apiserver
//      serves it from its watch cache once that is at least as fresh as X
//      (it waits for it, or answers 504 "Too large resource version"), so
//      it holds every Binding committed before step 1; one answer, and no
//      etcd read of every pod;
//   3. only if step 2 fails: a consistent list of every pod, paged
//      (kCatchUpPageSize), from etcd.
// Pods whose text holds nothing of enflame.com/ (they ask for no GCU
// resource, so they hold no card) are skipped unread where the client
// offers item texts (kube::ListOptions::take_item_text).
//
// A pod deleted between the list and the reservation stays counted until
// the process restarts (a conservative error: memory looks used, never
// free). Failure: step 1's error, or step 3's; the cache may then hold
// part of the reservations (all of them true). Thread-safe as the cache
// and client.
#ifndef GCUSHARE_EXTENDER_BINDING_CATCH_UP_H_
#define GCUSHARE_EXTENDER_BINDING_CATCH_UP_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extender/card_cache.h"
#include "kube/kube_client.h"
#include "status/status.h"

namespace gcushare::extender {

// The page size of step 3. A consistent list is read from etcd page by
// page, and kube-apiserver 1.26 spends about 13 ms on each page besides
// 16 ms a MB (docs/startup.md): at 150,000 pods, pages of 500 cost 3.9 s
// more than pages of 5,000, each about 13 MB of JSON, decoded one at a
// time with only the fields the cache reads.
inline constexpr int64_t kCatchUpPageSize = 5000;

// Returns how many pods were added to the cache. `small_namespace`: a
// namespace with few pods, for step 1 (any namespace is correct; a large
// one only costs more).
StatusOr<size_t> CatchUpBindings(kube::KubeClient* client, CardCache* cache,
                                 std::string_view small_namespace);

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_BINDING_CATCH_UP_H_
