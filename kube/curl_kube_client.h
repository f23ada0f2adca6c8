// KubeClient over HTTP(S) with libcurl, for a real kube-apiserver.
//
// Create() stacks the transport: CurlHttpClient (TLS, timeouts, streaming)
// <- RetryingHttpClient (429/5xx/connection errors, backoff honouring
// Retry-After) <- BearerAuthHttpClient (token from the config, re-read from
// its file as it rotates and after a 401), and speaks JSON
// (Accept: application/json).
//
// Ownership: the client owns its transport stack and token source; the
// clock in KubeClientOptions (if given) is borrowed and must outlive it.
// Thread-safety: all methods may be called concurrently; a Watch blocks its
// calling thread, and its callback runs on that thread.
// Failure: see kube/kube_client.h.
#ifndef GCUSHARE_KUBE_CURL_KUBE_CLIENT_H_
#define GCUSHARE_KUBE_CURL_KUBE_CLIENT_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "base/clock.h"
#include "json/field_tree.h"
#include "json/pruned_parse.h"
#include "kube/config.h"
#include "kube/curl_http_client.h"
#include "kube/http_client.h"
#include "kube/kube_client.h"
#include "kube/retrying_http_client.h"
#include "kube/server_version.h"
#include "kube/token_source.h"

namespace gcushare::kube {

struct KubeClientOptions {
  CurlHttpClientOptions http;
  RetryOptions retry;
  // How often a token file is checked for a rotated token.
  std::chrono::seconds token_refresh_interval{60};
  // Events' reportingInstance; empty: this host's name.
  std::string reporting_instance;
  // Time and sleeping (retry backoff, event timestamps, token refresh);
  // null: the real clock. Not owned.
  base::Clock* clock = nullptr;
  // Extra time a watch may stay open beyond its timeoutSeconds before the
  // client gives up on a silent server.
  std::chrono::seconds watch_timeout_slack{30};
};

class CurlKubeClient : public KubeClient {
 public:
  // InvalidArgument when config.server is empty.
  static StatusOr<std::unique_ptr<CurlKubeClient>> Create(
      const ClientConfig& config, const KubeClientOptions& options = {});

  ~CurlKubeClient() override;

  StatusOr<nlohmann::json> Get(const Resource& resource, std::string_view ns,
                               std::string_view name) override;
  StatusOr<ObjectList> List(const Resource& resource, std::string_view ns,
                            const ListOptions& options) override;
  // One page decoded at a time, its items handed over (on the calling
  // thread) as they are decoded. The next page is asked for as soon as its
  // continue token is known, that is at the first item of a page whose
  // metadata precedes its items (as the API server writes them): it is
  // fetched and depth-scanned on a helper thread (kube/fetch_ahead.h)
  // meanwhile, so at most two pages' text is held. A page fetched ahead
  // for a token the page does not end with (a repeated "metadata"), or
  // when the list fails, is cancelled and dropped; otherwise the requests
  // and the items are those of one page after the other.
  // Without a limit (a list from the watch cache comes whole, tens or
  // hundreds of MB), the answer is split as it streams in
  // (kube/list_splitter.h) and each item decoded and handed over as its
  // text completes: one item's text is held, never the answer's.
  StatusOr<std::string> ListEach(const Resource& resource, std::string_view ns,
                                 const ListOptions& options,
                                 const ListItemCallback& each) override;
  Status Watch(const Resource& resource, std::string_view ns,
               const WatchOptions& options,
               const WatchCallback& callback) override;
  StatusOr<nlohmann::json> Create(const Resource& resource, std::string_view ns,
                                  const nlohmann::json& object) override;
  StatusOr<nlohmann::json> Update(const Resource& resource, std::string_view ns,
                                  const nlohmann::json& object) override;
  StatusOr<nlohmann::json> UpdateStatus(const Resource& resource,
                                        std::string_view ns,
                                        const nlohmann::json& object) override;
  Status Delete(const Resource& resource, std::string_view ns,
                std::string_view name, const DeleteOptions& options) override;
  StatusOr<nlohmann::json> Patch(const Resource& resource, std::string_view ns,
                                 std::string_view name, PatchType type,
                                 const nlohmann::json& patch,
                                 std::string_view subresource) override;
  Status CreateBinding(
      std::string_view ns, std::string_view pod, std::string_view uid,
      std::string_view node,
      const std::map<std::string, std::string>& annotations) override;
  StatusOr<nlohmann::json> CreateEvent(
      std::string_view ns, const ObjectReference& involved,
      std::string_view type, std::string_view reason, std::string_view message,
      std::string_view reporting_component) override;

  // GET /version.
  StatusOr<ServerVersion> GetServerVersion();

  const std::string& server() const { return server_; }

 private:
  CurlKubeClient() = default;

  // One request/response with a JSON answer (null for an empty body), of
  // which only `fields` is decoded (default: all), by `parser` (null: a
  // new one).
  StatusOr<nlohmann::json> Call(std::string method, const std::string& path,
                                const std::optional<nlohmann::json>& body,
                                std::string_view content_type,
                                base::Cancellation* cancel,
                                const json::FieldTree& fields = {},
                                json::PrunedParser* parser = nullptr);
  // A list page as received: a GET whose answer has been checked (a non-2xx
  // answer is its Status) and, unless empty, scanned against the depth
  // bound (json::PreparedText; too deep is DataLoss as in Exchange()).
  struct FetchedPage {
    std::string url;
    int status_code = 0;
    std::optional<json::PreparedText> text;  // nullopt: an empty body.
  };
  StatusOr<FetchedPage> FetchPage(const std::string& path,
                                  base::Cancellation* cancel);
  // Decodes a fetched page: each item of its "items" (pruned to `fields`'
  // subtree) goes to `each` as it is decoded, with the page decoded so far;
  // returns the rest of the page (without the items; null for an empty
  // body), errors as Exchange().
  StatusOr<nlohmann::json> DecodePage(
      const FetchedPage& page, const json::FieldTree& fields,
      json::PrunedParser& parser,
      const json::PrunedParser::ElementCallback& each);
  // Sends `request`; a non-2xx answer becomes its Status, an empty body
  // null, and any other body goes to `decode`, whose error becomes
  // DataLoss naming the request and quoting the body's start.
  // ListEach() of one unpaged answer, streamed.
  StatusOr<std::string> ListStreamed(const Resource& resource,
                                     const std::string& path,
                                     const ListOptions& options,
                                     const json::FieldTree& item_fields,
                                     const ListItemCallback& each);
  StatusOr<nlohmann::json> Exchange(
      const HttpRequest& request,
      const std::function<StatusOr<nlohmann::json>(const std::string& body)>&
          decode);

  std::string server_;
  KubeClientOptions options_;
  std::unique_ptr<base::Clock> owned_clock_;
  base::Clock* clock_ = nullptr;
  std::unique_ptr<TokenSource> tokens_;
  std::unique_ptr<HttpClient> curl_;
  std::unique_ptr<HttpClient> retrying_;
  std::unique_ptr<HttpClient> authenticated_;
  HttpClient* http_ = nullptr;  // The top of the stack.
  std::atomic<uint64_t> event_counter_{0};
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_CURL_KUBE_CLIENT_H_
