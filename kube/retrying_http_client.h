// An HttpClient decorator that retries what is safe to retry:
//   - transport failures kUnavailable / kDeadlineExceeded, and HTTP 429 and
//     5xx responses, with exponential backoff and jitter (base/backoff.h);
//   - the delay honours a Retry-After header (seconds) or the Status
//     object's details.retryAfterSeconds, capped at max_retry_after;
//   - at most max_attempts sends in all;
//   - POST (a create) is re-sent only when it certainly never reached the
//     server (HttpResult::sent == false);
//   - a streamed request is never re-sent once body bytes were delivered;
//   - other 4xx, TLS/configuration errors and cancellation are returned at
//     once.
// Sleeping goes through the injected Clock, so tests never really sleep;
// a sleep ends early on the request's Cancellation.
//
// Ownership: `inner` and `clock` are not owned and must outlive this.
// Thread-safety: Send() may be called concurrently.
#ifndef GCUSHARE_KUBE_RETRYING_HTTP_CLIENT_H_
#define GCUSHARE_KUBE_RETRYING_HTTP_CLIENT_H_

#include <chrono>
#include <optional>

#include "base/backoff.h"
#include "base/clock.h"
#include "kube/http_client.h"

namespace gcushare::kube {

struct RetryOptions {
  int max_attempts = 5;
  base::BackoffOptions backoff{std::chrono::milliseconds(200),
                               std::chrono::milliseconds(10000), 2.0, 0.2};
  std::chrono::seconds max_retry_after{60};
};

class RetryingHttpClient : public HttpClient {
 public:
  RetryingHttpClient(HttpClient* inner, base::Clock* clock,
                     RetryOptions options);

  HttpResult Send(const HttpRequest& request) override;

  // The server-requested delay of a 429/503 response, if any.
  static std::optional<std::chrono::seconds> RetryAfter(
      const HttpResponse& response);

 private:
  HttpClient* const inner_;
  base::Clock* const clock_;
  const RetryOptions options_;
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_RETRYING_HTTP_CLIENT_H_
