// POST /api/v1/namespaces/<ns>/pods/<name>/binding (and the older
// POST /api/v1/namespaces/<ns>/bindings): binds a pod to a node, as a
// scheduler or scheduler extender does.
//
// Like the real BindingREST: the Binding's metadata.name must equal the URL's
// pod name (400 "name in URL does not match name in Binding object");
// target.kind must be empty or Node and target.name set (otherwise the real
// server's un-wrapped validation error, a 500); metadata.uid and
// metadata.resourceVersion, when set, are preconditions on the pod (409 with
// the storage layer's "Precondition failed" message); a pod already bound is
// 409 `Operation cannot be fulfilled on pods/binding "p": pod p is already
// assigned to node "n"`; a missing pod is 404. On success the pod gets
// spec.nodeName, the Binding's annotations merged into its own, and the
// condition PodScheduled=True; the answer is 201 with a Success Status.
//
// Thread-safety: thread-safe.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_BINDING_HANDLER_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_BINDING_HANDLER_H_

#include <httplib.h>

#include "tests/peers/apiserver/handler_context.h"
#include "tests/peers/apiserver/request_path.h"

namespace gcushare::apiserver {

class BindingHandler {
 public:
  explicit BindingHandler(HandlerContext ctx) : ctx_(ctx) {}

  void Bind(const ApiPath& path, const httplib::Request& req,
            httplib::Response& res);

 private:
  HandlerContext ctx_;
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_BINDING_HANDLER_H_
