#include "kube/bearer_auth_http_client.h"

#include <spdlog/spdlog.h>

#include <string>

namespace gcushare::kube {

HttpResult BearerAuthHttpClient::SendWithToken(const HttpRequest& request) {
  StatusOr<std::string> token = tokens_->Token();
  if (!token.ok()) {
    HttpResult result;
    result.status = token.status();
    result.sent = false;
    return result;
  }
  if (token->empty()) return inner_->Send(request);
  HttpRequest with_token = request;
  with_token.headers.emplace_back("Authorization", "Bearer " + *token);
  return inner_->Send(with_token);
}

HttpResult BearerAuthHttpClient::Send(const HttpRequest& request) {
  HttpResult result = SendWithToken(request);
  if (result.status.ok() && result.response.status_code == 401 &&
      tokens_->Refresh()) {
    spdlog::info(
        "{} {}: 401 Unauthorized; retrying once with the re-read "
        "token",
        request.method, request.url);
    return SendWithToken(request);
  }
  return result;
}

}  // namespace gcushare::kube
