// An HttpClient decorator that adds "Authorization: Bearer <token>" from a
// TokenSource to every request. After a 401 it asks the source to re-read
// the token (a rotated service account token) and, when the token now
// differs from the one the request carried (re-read by this call or by a
// concurrent one), sends the request once more.
//
// Failure: a TokenSource error is returned as the result's status
// (kUnauthenticated or the file error) without sending.
// Ownership: `inner` and `tokens` are not owned and must outlive this.
// Thread-safety: Send() may be called concurrently.
#ifndef GCUSHARE_KUBE_BEARER_AUTH_HTTP_CLIENT_H_
#define GCUSHARE_KUBE_BEARER_AUTH_HTTP_CLIENT_H_

#include "kube/http_client.h"
#include "kube/token_source.h"

namespace gcushare::kube {

class BearerAuthHttpClient : public HttpClient {
 public:
  BearerAuthHttpClient(HttpClient* inner, TokenSource* tokens)
      : inner_(inner), tokens_(tokens) {}

  HttpResult Send(const HttpRequest& request) override;

 private:
  // Sends with the current token, which it stores in `used`.
  HttpResult SendWithToken(const HttpRequest& request, std::string* used);
  // True when the source's token is no longer `used` (re-read meanwhile).
  bool TokenDiffersFrom(const std::string& used);

  HttpClient* const inner_;
  TokenSource* const tokens_;
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_BEARER_AUTH_HTTP_CLIENT_H_
