// What every request handler works with: the store, the resource catalog and
// the id generator, all owned by the ApiServer and outliving the handlers.
//
// Thread-safety: the pointees are thread-safe; the struct is copied freely.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_HANDLER_CONTEXT_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_HANDLER_CONTEXT_H_

#include <chrono>
#include <cstddef>

#include "tests/peers/apiserver/id_generator.h"
#include "tests/peers/apiserver/list_cost.h"
#include "tests/peers/apiserver/object_store.h"
#include "tests/peers/apiserver/resource_kind.h"

namespace gcushare::apiserver {

struct HandlerContext {
  ObjectStore* store = nullptr;
  const ResourceCatalog* catalog = nullptr;
  IdGenerator* ids = nullptr;
  // How often a watch with allowWatchBookmarks=true gets a BOOKMARK.
  std::chrono::milliseconds bookmark_interval{1000};
  // Watch lines are written in HTTP chunks of at most this many bytes, each
  // sent at once (a test knob: clients must reassemble split lines); 0: one
  // chunk per line.
  size_t watch_chunk_bytes = 0;
  // What a list costs (list_cost.h); null: nothing, and nothing counted.
  ListCost* list_cost = nullptr;
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_HANDLER_CONTEXT_H_
