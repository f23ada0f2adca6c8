// The HttpClient over libcurl: TLS from a TlsConfig (files or in-memory
// PEM blobs), connect and total timeouts, TCP keepalive, streaming bodies
// and prompt cancellation.
//
// Each Send() drives its transfer with a private curl multi handle on the
// calling thread; Cancellation::Cancel() wakes the poll at once
// (curl_multi_wakeup), so a watch ends within milliseconds of Stop().
// Handles are pooled after use, which keeps connections alive across
// requests. DNS and TLS sessions are shared between handles through a
// locked curl share object. curl_global_init runs once per process
// (std::call_once) before the first handle is made.
//
// Headers: "Accept: application/json" unless the request names Accept; a
// header with an empty value removes one curl would add ("Accept" ""
// sends no Accept); Accept-Encoding is handed to curl, which then decodes
// the body (gzip) before the caller sees it.
//
// Failure: see HttpResult; error messages read
// "GET https://host/api/v1/pods: Couldn't connect to server (...)".
// Thread-safety: Send() may be called concurrently from many threads.
#ifndef GCUSHARE_KUBE_CURL_HTTP_CLIENT_H_
#define GCUSHARE_KUBE_CURL_HTTP_CLIENT_H_

#include <curl/curl.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "kube/http_client.h"
#include "kube/tls_config.h"

namespace gcushare::kube {

struct CurlHttpClientOptions {
  std::chrono::milliseconds connect_timeout{10000};
  // Default whole-exchange limit (HttpRequest::timeout overrides).
  std::chrono::milliseconds request_timeout{60000};
  // A buffered body larger than this fails with kResourceExhausted.
  size_t max_body_bytes = size_t{1} << 30;
  std::string user_agent = "gcushare-kube/1.0";
  size_t max_idle_handles = 8;
};

class CurlHttpClient : public HttpClient {
 public:
  explicit CurlHttpClient(TlsConfig tls, CurlHttpClientOptions options = {});
  ~CurlHttpClient() override;
  CurlHttpClient(const CurlHttpClient&) = delete;
  CurlHttpClient& operator=(const CurlHttpClient&) = delete;

  HttpResult Send(const HttpRequest& request) override;

 private:
  struct Handle {
    CURLM* multi = nullptr;
    CURL* easy = nullptr;
  };

  Handle Acquire();
  void Release(Handle handle);
  void ApplyTls(CURL* easy) const;
  static void LockShare(CURL* easy, curl_lock_data data,
                        curl_lock_access access, void* self);
  static void UnlockShare(CURL* easy, curl_lock_data data, void* self);

  const TlsConfig tls_;
  const CurlHttpClientOptions options_;
  CURLSH* share_ = nullptr;
  // Locked and unlocked by curl's share callbacks, across calls: plain
  // std::mutex, not an annotated Mutex.
  std::array<std::mutex, CURL_LOCK_DATA_LAST> share_locks_;
  base::Mutex pool_mu_;
  std::vector<Handle> idle_ GUARDED_BY(pool_mu_);
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_CURL_HTTP_CLIENT_H_
