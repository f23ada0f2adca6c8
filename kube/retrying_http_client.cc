#include "kube/retrying_http_client.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <string>
#include <utility>

#include "kube/api_status.h"

namespace gcushare::kube {
namespace {

bool IsRetryableHttp(int code) { return code == 429 || code >= 500; }

bool IsRetryableTransport(StatusCode code) {
  return code == StatusCode::kUnavailable ||
         code == StatusCode::kDeadlineExceeded;
}

}  // namespace

RetryingHttpClient::RetryingHttpClient(HttpClient* inner, base::Clock* clock,
                                       RetryOptions options)
    : inner_(inner), clock_(clock), options_(std::move(options)) {}

std::optional<std::chrono::seconds> RetryingHttpClient::RetryAfter(
    const HttpResponse& response) {
  const std::string header = response.Header("retry-after");
  if (!header.empty()) {
    int seconds = 0;
    auto [end, error] =
        std::from_chars(header.data(), header.data() + header.size(), seconds);
    // The HTTP-date form is not used by the API server; ignore it.
    if (error == std::errc() && end == header.data() + header.size() &&
        seconds >= 0) {
      return std::chrono::seconds(seconds);
    }
  }
  if (std::optional<int> seconds = RetryAfterSecondsFromBody(response.body)) {
    return std::chrono::seconds(*seconds);
  }
  return std::nullopt;
}

HttpResult RetryingHttpClient::Send(const HttpRequest& request) {
  const bool is_post = request.method == "POST";
  bool delivered = false;
  HttpRequest attempt_request = request;
  if (request.on_body) {
    attempt_request.on_body = [&delivered,
                               &request](std::string_view bytes) -> bool {
      delivered = true;
      return request.on_body(bytes);
    };
  }
  base::Backoff backoff(options_.backoff);
  for (int attempt = 1;; ++attempt) {
    HttpResult result = inner_->Send(attempt_request);
    bool retry = false;
    std::optional<std::chrono::seconds> retry_after;
    if (!result.status.ok()) {
      retry = IsRetryableTransport(result.status.code()) && !delivered &&
              (!is_post || !result.sent);
    } else if (IsRetryableHttp(result.response.status_code)) {
      retry = !is_post;
      retry_after = RetryAfter(result.response);
    }
    if (!retry || attempt >= options_.max_attempts) return result;

    std::chrono::nanoseconds delay = backoff.Next();
    if (retry_after.has_value()) {
      delay = std::min<std::chrono::nanoseconds>(*retry_after,
                                                 options_.max_retry_after);
    }
    spdlog::debug(
        "{} {}: attempt {} of {} failed ({}); retrying in {} ms",
        request.method, request.url, attempt, options_.max_attempts,
        result.status.ok()
            ? "HTTP " + std::to_string(result.response.status_code)
            : result.status.message(),
        std::chrono::duration_cast<std::chrono::milliseconds>(delay).count());
    if (!clock_->SleepFor(delay, request.cancel)) {
      result.status = Status(StatusCode::kCancelled,
                             request.method + " " + request.url +
                                 ": cancelled while waiting to retry");
      return result;
    }
  }
}

}  // namespace gcushare::kube
