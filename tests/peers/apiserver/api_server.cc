#include "tests/peers/apiserver/api_server.h"

#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "tests/peers/apiserver/list_options.h"
#include "tests/peers/apiserver/named_group_kinds.h"
#include "tests/peers/apiserver/request_path.h"
#include "tests/peers/apiserver/response_writer.h"

namespace gcushare::apiserver {

ApiServer::ApiServer(const ServerOptions& options)
    : options_(options), catalog_(NamedGroupKinds(options.feature_gates)) {}

StatusOr<std::unique_ptr<ApiServer>> ApiServer::Create(
    const ServerOptions& options) {
  if (!options.token.empty() && !options.token_file.empty()) {
    return InvalidArgumentError(
        "give either a token or a token file, not both");
  }
  auto version_json = VersionJson(options.kube_version);
  if (!version_json.ok()) return version_json.status();
  std::unique_ptr<ApiServer> server(new ApiServer(options));
  server->version_json_ = std::move(*version_json);
  Journal::State state;
  if (!options.state_file.empty()) {
    GCUSHARE_ASSIGN_OR_RETURN(server->journal_,
                              Journal::Open(options.state_file, &state));
  }
  ObjectStore::Options store_options;
  store_options.history = options.history;
  store_options.journal = server->journal_.get();
  server->store_ = std::make_unique<ObjectStore>(store_options);
  if (server->journal_ != nullptr) {
    server->store_->Restore(state);
    spdlog::info("state file {}: {} objects, resourceVersion {}",
                 options.state_file, state.objects.size(), state.rv);
  }
  server->list_cost_ = std::make_unique<ListCost>(options.list_cost);
  HandlerContext ctx;
  ctx.store = server->store_.get();
  ctx.list_cost = server->list_cost_.get();
  ctx.catalog = &server->catalog_;
  ctx.ids = &server->ids_;
  ctx.bookmark_interval = options.bookmark_interval;
  ctx.watch_chunk_bytes = options.watch_chunk_bytes;
  server->crud_ = std::make_unique<CrudHandler>(ctx);
  server->list_ = std::make_unique<ListHandler>(ctx);
  server->patch_ = std::make_unique<PatchHandler>(ctx);
  server->watch_ = std::make_unique<WatchHandler>(ctx);
  server->binding_ = std::make_unique<BindingHandler>(ctx);
  return server;
}

ApiServer::~ApiServer() { Stop(); }

Status ApiServer::Start() {
  size_t threads = options_.threads == 0 ? 1 : options_.threads;
  http_.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  // Like Go's net/http: no Nagle delay between the header and body writes
  // (with the client's delayed ACK it costs ~40 ms per response).
  http_.set_tcp_nodelay(true);
  for (const char* method : {"GET", "POST", "PUT", "PATCH", "DELETE"}) {
    std::string m = method;
    auto handler = [this, m](const httplib::Request& req,
                             httplib::Response& res) { Dispatch(m, req, res); };
    if (m == "GET") http_.Get(".*", handler);
    if (m == "POST") http_.Post(".*", handler);
    if (m == "PUT") http_.Put(".*", handler);
    if (m == "PATCH") http_.Patch(".*", handler);
    if (m == "DELETE") http_.Delete(".*", handler);
  }
  http_.set_exception_handler([](const httplib::Request&,
                                 httplib::Response& res,
                                 const std::exception_ptr&) {
    WriteStatus(res, ApiStatus::Failure(500, "InternalError",
                                        "Internal error occurred: unexpected "
                                        "exception"));
  });
  if (options_.port == 0) {
    port_ = http_.bind_to_any_port(options_.bind_address);
    if (port_ < 0) {
      return UnavailableError("cannot bind " + options_.bind_address);
    }
  } else {
    if (!http_.bind_to_port(options_.bind_address, options_.port)) {
      return UnavailableError("cannot bind " + options_.bind_address + ":" +
                              std::to_string(options_.port));
    }
    port_ = options_.port;
  }
  // httplib listens with a backlog of 5; hundreds of watchers connecting at
  // once need more.
  ::listen(http_.listen_fd(), SOMAXCONN);
  listener_ = std::thread([this] { http_.listen_after_bind(); });
  return OkStatus();
}

void ApiServer::Stop() {
  if (stopped_) return;
  stopped_ = true;
  if (store_ != nullptr) store_->CloseAllWatches();
  // Let the streams write their terminating chunk before the HTTP server
  // stops calling their providers.
  if (watch_ != nullptr) watch_->WaitForStreamsToEnd(std::chrono::seconds(5));
  http_.stop();
  if (listener_.joinable()) listener_.join();
}

bool ApiServer::Authorized(const httplib::Request& req) const {
  std::string token = options_.token;
  if (!options_.token_file.empty()) {
    std::ifstream in(options_.token_file, std::ios::binary);
    std::ostringstream contents;
    contents << in.rdbuf();
    token = contents.str();
    const size_t end = token.find_last_not_of(" \t\r\n");
    token.erase(end == std::string::npos ? 0 : end + 1);
    token.erase(0, token.find_first_not_of(" \t\r\n"));
    if (token.empty()) {
      spdlog::warn("token file {} is missing or empty: refusing {} {}",
                   options_.token_file, req.method, req.path);
      return false;
    }
  }
  return token.empty() ||
         req.get_header_value("Authorization") == "Bearer " + token;
}

void ApiServer::Dispatch(const std::string& method, const httplib::Request& req,
                         httplib::Response& res) {
  // Never compress: httplib would gzip a watch stream and hold its events
  // back. The Request is the server's own non-const object.
  const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
  if (!Authorized(req)) {
    WriteStatus(res, UnauthorizedStatus());
    return;
  }
  if (const int refused = options_.fail_before_handle
                              ? options_.fail_before_handle(method, req.path)
                              : 0;
      refused != 0) {
    WriteStatus(res, GenericResponseStatus(refused));
    return;
  }
  try {
    DispatchApi(method, req, res);
  } catch (const std::exception& e) {
    WriteStatus(res, ApiStatus::Failure(
                         500, "InternalError",
                         std::string("Internal error occurred: ") + e.what()));
    return;
  }
  const int injected = options_.fail_after_commit
                           ? options_.fail_after_commit(method, req.path)
                           : 0;
  if (injected == kBreakConnection) {
    // Promise a body, then fail to produce it: httplib closes the
    // connection after the headers. (httplib writes a non-empty body in
    // preference to a provider.)
    res.body.clear();
    res.set_content_provider(
        1024, "application/json",
        [](size_t, size_t, httplib::DataSink&) { return false; });
  } else if (injected == 504) {
    // kube-apiserver's words when the request deadline passed.
    WriteStatus(res, ApiStatus::Failure(504, "Timeout",
                                        "Timeout: request did not complete "
                                        "within requested timeout - context "
                                        "deadline exceeded"));
  } else if (injected != 0) {
    WriteStatus(res, ApiStatus::Failure(injected, "InternalError",
                                        "Internal error occurred: injected "
                                        "after the write committed"));
  }
}

void ApiServer::DispatchApi(const std::string& method,
                            const httplib::Request& req,
                            httplib::Response& res) {
  if (method == "GET") {
    if (req.path == "/version") {
      WriteJsonText(res, 200, version_json_);
      return;
    }
    if (req.path == "/healthz" || req.path == "/readyz" ||
        req.path == "/livez") {
      res.status = 200;
      res.set_header("Cache-Control", "no-cache, private");
      res.set_header("X-Content-Type-Options", "nosniff");
      res.set_content("ok", "text/plain; charset=utf-8");
      return;
    }
  }
  std::optional<ApiPath> path = ParseApiPath(req.path, catalog_);
  if (!path) {
    WriteStatus(res, GenericResponseStatus(404));
    return;
  }
  if (method != "GET" && req.has_param("dryRun")) {
    // Not supported; failing loudly beats writing what was meant as a trial.
    WriteStatus(res, BadRequestStatus(
                         "dryRun is not supported by the stand-in API server"));
    return;
  }
  const ResourceKind& kind = *path->kind;
  const bool all_namespaces = kind.namespaced && path->ns.empty();
  const bool item = !path->collection() && path->subresource.empty();
  const bool status = path->subresource == "status";
  const bool binding = path->subresource == "binding";
  if (method == "GET" && !binding) {
    if (path->collection() || path->legacy_watch) {
      ApiResult<ListOptions> options = ParseListOptions(req.params, kind);
      if (!options.ok()) {
        WriteStatus(res, options.error());
        return;
      }
      if (options.value().watch || path->legacy_watch) {
        watch_->Watch(*path, options.value(), res);
      } else {
        list_->List(*path, options.value(), res);
      }
      return;
    }
    crud_->Get(*path, res);
    return;
  }
  if (method == "POST" && binding) {
    binding_->Bind(*path, req, res);
    return;
  }
  if (method == "POST" && path->collection() && !all_namespaces) {
    crud_->Create(*path, req, res);
    return;
  }
  if (method == "PUT" && (item || status)) {
    crud_->Update(*path, req, res);
    return;
  }
  if (method == "PATCH" && (item || status)) {
    patch_->Patch(*path, req, res);
    return;
  }
  if (method == "DELETE" && item) {
    crud_->Delete(*path, req, res);
    return;
  }
  WriteStatus(res, GenericResponseStatus(405));
}

}  // namespace gcushare::apiserver
