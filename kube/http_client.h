// One HTTP exchange with the API server, as an abstract transport so that
// decorators (retries, bearer auth) and fakes stack on it. CurlHttpClient
// (kube/curl_http_client.h) is the real one.
//
// Streaming: when HttpRequest::on_body is set and the response status is
// 2xx, body bytes are handed to it as they arrive and the response's body
// stays empty; other statuses are buffered as usual, so an error body is
// always readable. Cancellation (HttpRequest::cancel) ends an exchange
// promptly, from any thread.
//
// Thread-safety: implementations are safe for concurrent Send() calls.
// Ownership: the request (and what it points to) is borrowed for the call.
#ifndef GCUSHARE_KUBE_HTTP_CLIENT_H_
#define GCUSHARE_KUBE_HTTP_CLIENT_H_

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/cancellation.h"
#include "status/status.h"

namespace gcushare::kube {

struct HttpRequest {
  std::string method = "GET";
  std::string url;  // Absolute, query included.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // Whole-exchange limit; nullopt: the client's default; zero: none (watch
  // streams, which rely on the server's timeoutSeconds and TCP keepalive).
  std::optional<std::chrono::milliseconds> timeout;
  // Receives a 2xx body as it streams in; return false to abort (Send then
  // reports kCancelled). Runs on the thread that called Send().
  std::function<bool(std::string_view)> on_body;
  base::Cancellation* cancel = nullptr;  // Not owned; may be null.

  // The value of header `name` (ASCII case-insensitive), or "".
  std::string Header(std::string_view name) const;
};

struct HttpResponse {
  int status_code = 0;
  std::map<std::string, std::string> headers;  // Names in lower case.
  std::string body;

  std::string Header(std::string_view lower_case_name) const {
    auto it = headers.find(std::string(lower_case_name));
    return it == headers.end() ? "" : it->second;
  }
};

struct HttpResult {
  // OK when a complete response arrived, whatever its HTTP status. Else no
  // (complete) response: kUnavailable (connection failed or dropped),
  // kDeadlineExceeded (timed out), kFailedPrecondition (TLS or
  // configuration problem, pointless to retry), kCancelled.
  Status status;
  // False only when the request certainly never reached the server (the
  // connection could not be made), so that even a POST may be re-sent.
  bool sent = true;
  HttpResponse response;
};

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  virtual HttpResult Send(const HttpRequest& request) = 0;
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_HTTP_CLIENT_H_
