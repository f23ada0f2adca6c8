// HTTP/1.1 request framing for FramedHttpServer (http/framed_http_server.h,
// the extender's server): where one request's head ends, what it asks for,
// and how many body bytes follow, decided from the bytes buffered so far (no
// socket here).
//
// Supported: a request line "METHOD target HTTP/1.x", header fields, and a
// body given by Content-Length. Refused with a status and a one-line
// message: a malformed head (400), a head over max_head_bytes (431), a POST
// or PUT without Content-Length or with Transfer-Encoding (411: the extender
// takes no chunked bodies; kube-scheduler always sends Content-Length), and
// a Content-Length over max_body_bytes (413).
//
// Pure functions and values; thread-safe.
#ifndef GCUSHARE_HTTP_HTTP_FRAMING_H_
#define GCUSHARE_HTTP_HTTP_FRAMING_H_

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

namespace gcushare::http {

struct FramingLimits {
  size_t max_head_bytes = 64 << 10;
  size_t max_body_bytes = size_t{8} << 20;
};

// One request as the workers see it: whole, head and body.
struct HttpRequest {
  std::string method;                          // "GET", "POST", ...
  std::string path;                            // The target without its query.
  std::map<std::string, std::string> headers;  // Lower-case field names.
  std::string body;
  bool keep_alive = true;        // HTTP/1.1 without "Connection: close".
  bool expect_continue = false;  // "Expect: 100-continue".
};

struct HeadParse {
  enum class State {
    kIncomplete,  // The head has not ended yet (and is within the limit).
    kDone,        // `request` holds the head; `head_bytes`, `body_bytes`.
    kRefused,     // Answer `status` with `message`, then close.
  };
  State state = State::kIncomplete;
  HttpRequest request;    // kDone: body empty.
  size_t head_bytes = 0;  // kDone: bytes of the head, final CRLF included.
  size_t body_bytes = 0;  // kDone: Content-Length (0 when absent).
  int status = 0;         // kRefused.
  std::string message;    // kRefused: one line, no newline.
};

// Looks for one request head at the start of `buffered`.
HeadParse ParseHead(std::string_view buffered, const FramingLimits& limits);

// The reason phrase of a status code ("OK", "Request Timeout", ...).
std::string_view ReasonPhrase(int status);

}  // namespace gcushare::http

#endif  // GCUSHARE_HTTP_HTTP_FRAMING_H_
