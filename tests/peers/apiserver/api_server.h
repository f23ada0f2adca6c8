// ApiServer: the stand-in kube-apiserver, assembled: an httplib server, the
// object store (optionally journaled to a state file), and the handlers.
//
// Serves /api/v1 pods (with status and binding), nodes (with status) and
// events, the named groups' kinds under /apis/<group>/<version>
// (resource.k8s.io/v1 DRA kinds, coordination.k8s.io/v1 leases; see
// named_group_kinds.h), plus GET
// /version (kube-apiserver v1.31.0's JSON by default), /healthz,
// /livez and /readyz ("ok"). Any other path is a 404 Status. With a token,
// every request lacking "Authorization: Bearer <token>" is a 401 Status; with
// a token file, the accepted token is the file's content (surrounding white
// space trimmed), re-read on every request so that a test can rotate it, and
// every request is a 401 while the file is missing or empty.
// Responses are never compressed (Accept-Encoding is ignored). Writes with
// ?dryRun are refused (400): dry runs are not supported.
//
// Concurrency: httplib runs each connection on a pool of `threads` workers;
// an open watch holds its worker for its whole life, so at most `threads`
// connections (watches included) are served at once and further ones wait in
// the pool's queue. The listen backlog is raised to SOMAXCONN.
//
// Ownership: owns the store, journal, handlers and the listener thread.
// Thread-safety: Start/Stop from one thread; handlers are thread-safe.
// Failure: Create fails when the state file cannot be read or written,
// when both token and token_file are given or when kube_version is not a
// version; Start when the address cannot be bound.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_API_SERVER_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_API_SERVER_H_

#include <httplib.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "status/status.h"
#include "tests/peers/apiserver/binding_handler.h"
#include "tests/peers/apiserver/crud_handler.h"
#include "tests/peers/apiserver/feature_gates.h"
#include "tests/peers/apiserver/id_generator.h"
#include "tests/peers/apiserver/journal.h"
#include "tests/peers/apiserver/list_cost.h"
#include "tests/peers/apiserver/list_handler.h"
#include "tests/peers/apiserver/object_store.h"
#include "tests/peers/apiserver/patch_handler.h"
#include "tests/peers/apiserver/resource_kind.h"
#include "tests/peers/apiserver/version_info.h"
#include "tests/peers/apiserver/watch_handler.h"

namespace gcushare::apiserver {

// A fail_after_commit answer: cut the connection instead of answering.
inline constexpr int kBreakConnection = -1;

struct ServerOptions {
  std::string bind_address = "127.0.0.1";
  int port = 0;       // 0: any free port.
  std::string token;  // Empty: no authentication (unless token_file).
  // Accept the token in this file, re-read per request; exclusive with token.
  std::string token_file;
  size_t history = 10000;
  std::chrono::milliseconds bookmark_interval{1000};
  std::string state_file;  // Empty: memory only.
  size_t threads = 1024;
  // Split watch lines into HTTP chunks of this many bytes (0: one chunk per
  // line); see watch_handler.h.
  size_t watch_chunk_bytes = 0;
  // Fault injection for tests of unknown outcomes (in-process servers
  // only). Called after a request was handled, its writes committed and
  // journaled; a non-zero HTTP code replaces the answer with a Status of
  // that code, as kube-apiserver answers 504 "Timeout" when a write
  // committed in etcd but the request's deadline passed, or 500 when the
  // connection to etcd broke after the commit. Null or 0: the real answer.
  // kBreakConnection instead of a code: the status line and headers go
  // out, then the connection closes before the body (the client sees a
  // transfer cut short, as when the connection breaks mid-answer).
  // Called concurrently from the worker threads.
  std::function<int(const std::string& method, const std::string& path)>
      fail_after_commit;
  // Called before a request is handled (it may block, to hold a request in
  // flight); a non-zero HTTP code answers the request with kube-apiserver's
  // generic Status for that code, and nothing is written. Null or 0:
  // handled as usual. Called concurrently from the worker threads.
  std::function<int(const std::string& method, const std::string& path)>
      fail_before_handle;
  // Feature gates (--feature-gates); defaults as kube-apiserver 1.36's.
  FeatureGates feature_gates;
  // The release GET /version reports (--kube-version).
  std::string kube_version = kDefaultKubeVersion;
  // What a list costs (list_cost.h); free by default.
  ListCostOptions list_cost;
};

class ApiServer {
 public:
  static StatusOr<std::unique_ptr<ApiServer>> Create(
      const ServerOptions& options);
  ~ApiServer();  // Stops.
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;

  // Binds and starts serving on a background thread.
  Status Start();
  // Ends every watch cleanly (each writes its terminating chunk; up to 5 s
  // for clients that do not read), stops accepting, waits for the workers.
  // Idempotent.
  void Stop();
  int port() const { return port_; }
  ObjectStore& store() { return *store_; }
  // The list cost model and its counts of list answers.
  ListCost& list_cost() { return *list_cost_; }

 private:
  // httplib::Server with access to its listening socket.
  class HttpServer : public httplib::Server {
   public:
    int listen_fd() const { return svr_sock_; }
  };

  explicit ApiServer(const ServerOptions& options);
  // Whether the request carries the accepted bearer token (always true
  // without authentication).
  bool Authorized(const httplib::Request& req) const;
  void Dispatch(const std::string& method, const httplib::Request& req,
                httplib::Response& res);
  void DispatchApi(const std::string& method, const httplib::Request& req,
                   httplib::Response& res);

  ServerOptions options_;
  std::string version_json_;
  ResourceCatalog catalog_;
  IdGenerator ids_;
  std::unique_ptr<Journal> journal_;
  std::unique_ptr<ObjectStore> store_;
  std::unique_ptr<ListCost> list_cost_;
  std::unique_ptr<CrudHandler> crud_;
  std::unique_ptr<ListHandler> list_;
  std::unique_ptr<PatchHandler> patch_;
  std::unique_ptr<WatchHandler> watch_;
  std::unique_ptr<BindingHandler> binding_;
  HttpServer http_;
  std::thread listener_;
  int port_ = 0;
  bool stopped_ = false;
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_API_SERVER_H_
