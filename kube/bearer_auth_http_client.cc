#include "kube/bearer_auth_http_client.h"

#include <spdlog/spdlog.h>

#include <string>

namespace gcushare::kube {

HttpResult BearerAuthHttpClient::SendWithToken(const HttpRequest& request,
                                               std::string* used) {
  StatusOr<std::string> token = tokens_->Token();
  if (!token.ok()) {
    HttpResult result;
    result.status = token.status();
    result.sent = false;
    return result;
  }
  *used = *token;
  if (token->empty()) return inner_->Send(request);
  HttpRequest with_token = request;
  with_token.headers.emplace_back("Authorization", "Bearer " + *token);
  return inner_->Send(with_token);
}

HttpResult BearerAuthHttpClient::Send(const HttpRequest& request) {
  std::string used;
  HttpResult result = SendWithToken(request, &used);
  if (result.status.ok() && result.response.status_code == 401 &&
      (tokens_->Refresh() || TokenDiffersFrom(used))) {
    spdlog::info(
        "{} {}: 401 Unauthorized; retrying once with the re-read "
        "token",
        request.method, request.url);
    return SendWithToken(request, &used);
  }
  return result;
}

bool BearerAuthHttpClient::TokenDiffersFrom(const std::string& used) {
  // Another thread's 401 may have re-read the file between this request's
  // send and its Refresh(), which then reports "unchanged".
  StatusOr<std::string> now = tokens_->Token();
  return now.ok() && *now != used;
}

}  // namespace gcushare::kube
