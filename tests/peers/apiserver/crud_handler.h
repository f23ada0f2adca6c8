// GET, POST (create), PUT (update) and DELETE of single objects, with the
// real server's status codes and Status bodies:
//   GET    200 object | 404 `pods "p1" not found`
//   POST   201 object | 409 AlreadyExists | 400 (body, namespace) |
//          422 Invalid (name) | 500 when metadata.resourceVersion is set
//   PUT    200 object | 404 | 409 Conflict on a stale metadata.resourceVersion
//          (none: unconditional) | 400 name/namespace mismatch | 422 uid
//   DELETE 200 with the deleted object (pods) or a Success Status with name,
//          kind and uid (nodes, events) | 404 | 409 on failed preconditions
// Deletion is immediate (no graceful deletion, no finalizers).
//
// Thread-safety: thread-safe; one instance serves all requests.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_CRUD_HANDLER_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_CRUD_HANDLER_H_

#include <httplib.h>

#include "tests/peers/apiserver/handler_context.h"
#include "tests/peers/apiserver/request_path.h"

namespace gcushare::apiserver {

class CrudHandler {
 public:
  explicit CrudHandler(HandlerContext ctx) : ctx_(ctx) {}

  void Get(const ApiPath& path, httplib::Response& res);
  void Create(const ApiPath& path, const httplib::Request& req,
              httplib::Response& res);
  void Update(const ApiPath& path, const httplib::Request& req,
              httplib::Response& res);
  void Delete(const ApiPath& path, const httplib::Request& req,
              httplib::Response& res);

 private:
  HandlerContext ctx_;
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_CRUD_HANDLER_H_
