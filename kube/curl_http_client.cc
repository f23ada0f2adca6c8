#include "kube/curl_http_client.h"

#include <strings.h>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <string_view>
#include <utility>

#include "base/mutex.h"

namespace gcushare::kube {
namespace {

// Spare capacity after a body of known length (simdjson's padding).
constexpr size_t kBodyPadding = 64;

void InitCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_ALL); });
}

// Per-transfer state shared with the curl callbacks.
struct Transfer {
  const HttpRequest* request = nullptr;
  CURL* easy = nullptr;
  size_t max_body = 0;
  HttpResponse response;
  bool status_known = false;
  bool streaming = false;
  bool consumer_stopped = false;
  bool body_too_large = false;
};

size_t OnWrite(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  if (!transfer->status_known) {
    long code = 0;
    curl_easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &code);
    transfer->response.status_code = static_cast<int>(code);
    transfer->status_known = true;
    transfer->streaming =
        transfer->request->on_body != nullptr && code >= 200 && code < 300;
    // One allocation for a body of known size (a list page is megabytes;
    // growing it by doubling costs a copy and a heap consolidation each),
    // with room for a JSON parser's padding past the end (simdjson reads
    // up to 64 bytes beyond; json::PreparedText then takes the body as is
    // instead of copying it).
    curl_off_t length = -1;
    if (!transfer->streaming &&
        curl_easy_getinfo(transfer->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T,
                          &length) == CURLE_OK &&
        length > 0 && static_cast<size_t>(length) <= transfer->max_body) {
      transfer->response.body.reserve(static_cast<size_t>(length) +
                                      kBodyPadding);
    }
  }
  if (transfer->streaming) {
    if (!transfer->request->on_body(std::string_view(data, bytes))) {
      transfer->consumer_stopped = true;
      return 0;  // Aborts the transfer with CURLE_WRITE_ERROR.
    }
    return bytes;
  }
  if (transfer->response.body.size() + bytes > transfer->max_body) {
    transfer->body_too_large = true;
    return 0;
  }
  transfer->response.body.append(data, bytes);
  return bytes;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text[0]))) {
    text.remove_prefix(1);
  }
  while (!text.empty() &&
         std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  std::string_view line(data, bytes);
  if (line.rfind("HTTP/", 0) == 0) {
    // A new response (after a 1xx): forget earlier headers.
    transfer->response.headers.clear();
    return bytes;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return bytes;
  std::string name(Trim(line.substr(0, colon)));
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
    return static_cast<char>(std::tolower(c));
  });
  const std::string_view value = Trim(line.substr(colon + 1));
  auto [it, inserted] =
      transfer->response.headers.emplace(name, std::string(value));
  if (!inserted) it->second.append(", ").append(value);
  return bytes;
}

// Errors that happen before any request byte can have left: connecting,
// resolving, the TLS handshake.
bool IsBeforeSendError(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
      return true;
    default:
      return false;
  }
}

// Configuration problems that a retry cannot fix.
bool IsConfigurationError(CURLcode code) {
  switch (code) {
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_NOT_BUILT_IN:
    case CURLE_BAD_FUNCTION_ARGUMENT:
      return true;
    default:
      return false;
  }
}

void SetBlob(CURL* easy, CURLoption option, const std::string& data) {
  curl_blob blob;
  blob.data = const_cast<char*>(data.data());
  blob.len = data.size();
  blob.flags = CURL_BLOB_COPY;
  curl_easy_setopt(easy, option, &blob);
}

// Sets what every transfer has: the URL, timeouts, keepalive, the
// callbacks into `transfer` and the error buffer.
void SetTransferOptions(CURL* easy, const HttpRequest& request,
                        const CurlHttpClientOptions& options,
                        Transfer* transfer, char* error_buffer) {
  curl_easy_setopt(easy, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(easy, CURLOPT_USERAGENT, options.user_agent.c_str());
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(options.connect_timeout.count()));
  const std::chrono::milliseconds timeout =
      request.timeout.value_or(options.request_timeout);
  curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS,
                   static_cast<long>(std::max<int64_t>(0, timeout.count())));
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPIDLE, 30L);
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPINTVL, 10L);
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &OnWrite);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, transfer);
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &OnHeader);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, transfer);
}

// Sets the method and, for one that carries it, the body.
void SetMethod(CURL* easy, const HttpRequest& request) {
  if (request.method == "GET") {
    curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
    return;
  }
  curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  if (!request.body.empty() || request.method == "POST" ||
      request.method == "PUT" || request.method == "PATCH") {
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  }
}

// The request's header list (the caller frees it with
// curl_slist_free_all); Accept-Encoding goes to curl as an option.
curl_slist* MakeHeaders(CURL* easy, const HttpRequest& request) {
  curl_slist* headers = nullptr;
  headers = curl_slist_append(headers, "Expect:");
  bool has_accept = false;
  for (const auto& [name, value] : request.headers) {
    if (strcasecmp(name.c_str(), "Accept") == 0) has_accept = true;
  }
  if (!has_accept) {
    headers = curl_slist_append(headers, "Accept: application/json");
  }
  for (const auto& [name, value] : request.headers) {
    if (strcasecmp(name.c_str(), "Accept-Encoding") == 0) {
      // curl sends the header and decodes the body it announces.
      curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, value.c_str());
      continue;
    }
    // An empty value ("Accept:") removes a header curl would add.
    std::string line = name;
    line += value.empty() ? ":" : ": ";
    line += value;
    headers = curl_slist_append(headers, line.c_str());
  }
  return headers;
}

// How a transfer driven by Drive() ended.
struct Outcome {
  bool cancelled = false;  // Seen cancelled while it ran.
  CURLMcode multi_code = CURLM_OK;
  bool done = false;  // curl reported it done, with `code`.
  CURLcode code = CURLE_OK;
  long request_size = 0;  // Request bytes sent.
  long status_code = 0;
};

// Drives the transfer of `easy` on `multi` to its end or the request's
// cancellation, which wakes curl_multi_poll at once. Leaves `easy` added
// to `multi`.
Outcome Drive(CURLM* multi, CURL* easy, const HttpRequest& request) {
  Outcome outcome;
  curl_multi_add_handle(multi, easy);
  base::Cancellation::WakerId waker = 0;
  if (request.cancel != nullptr) {
    waker = request.cancel->AddWaker([multi] { curl_multi_wakeup(multi); });
  }
  while (true) {
    int running = 0;
    outcome.multi_code = curl_multi_perform(multi, &running);
    if (outcome.multi_code != CURLM_OK || running == 0) break;
    if (request.cancel != nullptr && request.cancel->IsCancelled()) {
      outcome.cancelled = true;
      break;
    }
    outcome.multi_code = curl_multi_poll(multi, nullptr, 0, 1000, nullptr);
    if (outcome.multi_code != CURLM_OK) break;
  }
  if (request.cancel != nullptr) request.cancel->RemoveWaker(waker);
  int queued = 0;
  while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
    if (message->msg == CURLMSG_DONE && message->easy_handle == easy) {
      outcome.code = message->data.result;
      outcome.done = true;
    }
  }
  curl_easy_getinfo(easy, CURLINFO_REQUEST_SIZE, &outcome.request_size);
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &outcome.status_code);
  return outcome;
}

// The result of a transfer that ended as `outcome` says.
HttpResult ResultOf(const std::string& what, const HttpRequest& request,
                    const Outcome& outcome, Transfer* transfer,
                    const char* error_buffer, size_t max_body_bytes) {
  HttpResult result;
  if (outcome.cancelled || (!outcome.done && request.cancel != nullptr &&
                            request.cancel->IsCancelled())) {
    result.status = Status(StatusCode::kCancelled, what + ": cancelled");
    result.sent = outcome.request_size > 0;
    return result;
  }
  if (!outcome.done) {
    result.status = InternalError(what + ": curl multi error: " +
                                  curl_multi_strerror(outcome.multi_code));
    result.sent = outcome.request_size > 0;
    return result;
  }
  const CURLcode code = outcome.code;
  if (code == CURLE_OK) {
    result.response = std::move(transfer->response);
    result.response.status_code = static_cast<int>(outcome.status_code);
    return result;
  }
  result.sent = !(IsBeforeSendError(code) && outcome.request_size == 0);
  if (transfer->consumer_stopped) {
    result.status =
        Status(StatusCode::kCancelled, what + ": stopped by the consumer");
    return result;
  }
  if (transfer->body_too_large) {
    result.status =
        ResourceExhaustedError(what + ": response body larger than " +
                               std::to_string(max_body_bytes) + " bytes");
    return result;
  }
  std::string detail = curl_easy_strerror(code);
  if (error_buffer[0] != '\0') detail += std::string(" (") + error_buffer + ")";
  if (code == CURLE_OPERATION_TIMEDOUT) {
    result.status = DeadlineExceededError(what + ": " + detail);
  } else if (IsConfigurationError(code)) {
    result.status = FailedPreconditionError(what + ": " + detail);
  } else {
    result.status = UnavailableError(what + ": " + detail);
  }
  return result;
}

}  // namespace

CurlHttpClient::CurlHttpClient(TlsConfig tls, CurlHttpClientOptions options)
    : tls_(std::move(tls)), options_(std::move(options)) {
  InitCurlOnce();
  share_ = curl_share_init();
  if (share_ != nullptr) {
    curl_share_setopt(share_, CURLSHOPT_LOCKFUNC, &CurlHttpClient::LockShare);
    curl_share_setopt(share_, CURLSHOPT_UNLOCKFUNC,
                      &CurlHttpClient::UnlockShare);
    curl_share_setopt(share_, CURLSHOPT_USERDATA, this);
    curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  }
}

CurlHttpClient::~CurlHttpClient() {
  for (Handle& handle : idle_) {
    curl_easy_cleanup(handle.easy);
    curl_multi_cleanup(handle.multi);
  }
  if (share_ != nullptr) curl_share_cleanup(share_);
}

void CurlHttpClient::LockShare(CURL*, curl_lock_data data, curl_lock_access,
                               void* self) {
  static_cast<CurlHttpClient*>(self)->share_locks_[data].lock();
}

void CurlHttpClient::UnlockShare(CURL*, curl_lock_data data, void* self) {
  static_cast<CurlHttpClient*>(self)->share_locks_[data].unlock();
}

CurlHttpClient::Handle CurlHttpClient::Acquire() {
  {
    base::MutexLock lock(pool_mu_);
    if (!idle_.empty()) {
      Handle handle = idle_.back();
      idle_.pop_back();
      curl_easy_reset(handle.easy);
      return handle;
    }
  }
  Handle handle;
  handle.multi = curl_multi_init();
  handle.easy = curl_easy_init();
  if (handle.multi == nullptr || handle.easy == nullptr) {
    if (handle.easy != nullptr) curl_easy_cleanup(handle.easy);
    if (handle.multi != nullptr) curl_multi_cleanup(handle.multi);
    return Handle{};
  }
  return handle;
}

void CurlHttpClient::Release(Handle handle) {
  {
    base::MutexLock lock(pool_mu_);
    if (idle_.size() < options_.max_idle_handles) {
      idle_.push_back(handle);
      return;
    }
  }
  curl_easy_cleanup(handle.easy);
  curl_multi_cleanup(handle.multi);
}

void CurlHttpClient::ApplyTls(CURL* easy) const {
  if (!tls_.ca_data.empty()) {
    SetBlob(easy, CURLOPT_CAINFO_BLOB, tls_.ca_data);
  } else if (!tls_.ca_file.empty()) {
    curl_easy_setopt(easy, CURLOPT_CAINFO, tls_.ca_file.c_str());
  }
  if (!tls_.cert_data.empty()) {
    SetBlob(easy, CURLOPT_SSLCERT_BLOB, tls_.cert_data);
  } else if (!tls_.cert_file.empty()) {
    curl_easy_setopt(easy, CURLOPT_SSLCERT, tls_.cert_file.c_str());
  }
  curl_easy_setopt(easy, CURLOPT_SSLCERTTYPE, "PEM");
  if (!tls_.key_data.empty()) {
    SetBlob(easy, CURLOPT_SSLKEY_BLOB, tls_.key_data);
  } else if (!tls_.key_file.empty()) {
    curl_easy_setopt(easy, CURLOPT_SSLKEY, tls_.key_file.c_str());
  }
  curl_easy_setopt(easy, CURLOPT_SSLKEYTYPE, "PEM");
  const long verify = tls_.insecure_skip_verify ? 0L : 1L;
  curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, verify);
  curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, verify * 2L);
}

HttpResult CurlHttpClient::Send(const HttpRequest& request) {
  HttpResult result;
  const std::string what = request.method + " " + request.url;
  if (request.cancel != nullptr && request.cancel->IsCancelled()) {
    result.status = Status(StatusCode::kCancelled, what + ": cancelled");
    result.sent = false;
    return result;
  }
  Handle handle = Acquire();
  if (handle.easy == nullptr) {
    result.status = InternalError(what + ": cannot create a curl handle");
    result.sent = false;
    return result;
  }
  CURL* easy = handle.easy;

  Transfer transfer;
  transfer.request = &request;
  transfer.easy = easy;
  transfer.max_body = options_.max_body_bytes;
  char error_buffer[CURL_ERROR_SIZE] = {0};

  SetTransferOptions(easy, request, options_, &transfer, error_buffer);
  if (share_ != nullptr) curl_easy_setopt(easy, CURLOPT_SHARE, share_);
  ApplyTls(easy);
  SetMethod(easy, request);
  curl_slist* headers = MakeHeaders(easy, request);
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);

  const Outcome outcome = Drive(handle.multi, easy, request);
  curl_multi_remove_handle(handle.multi, easy);
  curl_slist_free_all(headers);
  // The handle must not keep pointers into this frame.
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, nullptr);
  Release(handle);
  return ResultOf(what, request, outcome, &transfer, error_buffer,
                  options_.max_body_bytes);
}

}  // namespace gcushare::kube
