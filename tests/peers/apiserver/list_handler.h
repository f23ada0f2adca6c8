// GET of a collection without watch: the list of objects matching the
// request's namespace and selectors, sorted by namespace/name, as
// {"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":...,
// "continue":...,"remainingItemCount":...},"items":[...]}. Items carry no
// kind or apiVersion, as in the real server's lists.
//
// resourceVersion semantics: unset is the current state; "0" is the current
// state served "from the cache", where limit is ignored (as the v1.31 watch
// cache does); N (NotOlderThan) is the current state, or 504 "Too large
// resource version" when N is in the future; N with resourceVersionMatch=
// Exact is the state at N, 410 Expired when N is older than the history.
// Paging: limit=n returns n items and a continue token; following pages come
// from the same snapshot, or 410 Expired (with a token to continue from the
// current state) once that snapshot left the history window.
//
// Cost: with a HandlerContext::list_cost, each answer is charged (counted,
// and delayed as kube-apiserver 1.26 would take) to the source 1.26 serves
// it from (list_cost.h) before it is written.
//
// Thread-safety: thread-safe.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_LIST_HANDLER_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_LIST_HANDLER_H_

#include <httplib.h>

#include "tests/peers/apiserver/handler_context.h"
#include "tests/peers/apiserver/list_options.h"
#include "tests/peers/apiserver/request_path.h"

namespace gcushare::apiserver {

class ListHandler {
 public:
  explicit ListHandler(HandlerContext ctx) : ctx_(ctx) {}

  void List(const ApiPath& path, const ListOptions& options,
            httplib::Response& res);

 private:
  HandlerContext ctx_;
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_LIST_HANDLER_H_
