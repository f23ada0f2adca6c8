// How an Informer lists its collection (kube/informer.h), and which form
// suits an API server version (docs/startup.md has the table and the
// sources).
//
// kube-apiserver 1.26 through 1.36 serve a list with resourceVersion=0, or
// with a resourceVersion and no limit, from the watch cache: one answer,
// the cheapest form on every one of them. A consistent list (no
// resourceVersion) is a quorum read from etcd, page by page, before 1.31;
// from the cache when unpaged from 1.31 (ConsistentListFromCache, beta;
// it needs etcd's progress notifications, else it goes to etcd whole);
// paged from a cache snapshot from 1.34 (ListFromCacheSnapshot, beta).
// So kWatchCache is chosen for every version: it is never dearer, and the
// watch from the list's resourceVersion keeps the informer exact.
//
// Pure; thread-safe.
#ifndef GCUSHARE_KUBE_LIST_FORM_H_
#define GCUSHARE_KUBE_LIST_FORM_H_

#include <string_view>

#include "kube/server_version.h"
#include "status/status.h"

namespace gcushare::kube {

enum class ListForm {
  // client-go's reflector: resourceVersion=0 at first, then the last one
  // seen, unpaged: from the API server's watch cache. A list refused for
  // its resourceVersion is redone consistent and paged.
  kWatchCache,
  // Every list a consistent read (no resourceVersion), paged.
  kConsistentPaged,
};

// "watch-cache" / "consistent-paged".
std::string_view ListFormName(ListForm form);
// The inverse; InvalidArgument for another text.
StatusOr<ListForm> ParseListForm(std::string_view text);

// The form to list with against `version` (see above).
ListForm ChooseListForm(const ServerVersion& version);

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_LIST_FORM_H_
