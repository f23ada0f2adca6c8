#include "http/http_framing.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace gcushare::http {
namespace {

constexpr std::string_view kEndOfHead = "\r\n\r\n";

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(c));
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
    s.remove_suffix(1);
  }
  return s;
}

HeadParse Refuse(int status, std::string message) {
  HeadParse out;
  out.state = HeadParse::State::kRefused;
  out.status = status;
  out.message = std::move(message);
  return out;
}

bool IsToken(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
           c == '_' || c == '.' || c == '!' || c == '#' || c == '$' ||
           c == '%' || c == '&' || c == '\'' || c == '*' || c == '+' ||
           c == '^' || c == '`' || c == '|' || c == '~';
  });
}

}  // namespace

HeadParse ParseHead(std::string_view buffered, const FramingLimits& limits) {
  const size_t end = buffered.find(kEndOfHead);
  if (end == std::string_view::npos ||
      end + kEndOfHead.size() > limits.max_head_bytes) {
    if (std::min(end, buffered.size()) >= limits.max_head_bytes) {
      return Refuse(431, "request head over " +
                             std::to_string(limits.max_head_bytes) + " bytes");
    }
    return HeadParse{};
  }
  std::string_view head = buffered.substr(0, end);
  size_t line_end = head.find("\r\n");
  std::string_view line = head.substr(0, line_end);
  head = line_end == std::string_view::npos ? std::string_view()
                                            : head.substr(line_end + 2);

  HeadParse out;
  HttpRequest& req = out.request;
  const size_t sp1 = line.find(' ');
  const size_t sp2 =
      sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos) {
    return Refuse(400, "malformed request line");
  }
  req.method = std::string(line.substr(0, sp1));
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  std::string_view version = line.substr(sp2 + 1);
  if (!IsToken(req.method) || target.empty() || target.front() != '/' ||
      target.find(' ') != std::string_view::npos) {
    return Refuse(400, "malformed request line");
  }
  if (version != "HTTP/1.1" && version != "HTTP/1.0") {
    return Refuse(505, "only HTTP/1.0 and HTTP/1.1 are served");
  }
  req.path = std::string(target.substr(0, target.find('?')));
  req.keep_alive = version == "HTTP/1.1";

  while (!head.empty()) {
    line_end = head.find("\r\n");
    line = head.substr(0, line_end);
    head = line_end == std::string_view::npos ? std::string_view()
                                              : head.substr(line_end + 2);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || !IsToken(line.substr(0, colon))) {
      return Refuse(400, "malformed header line");
    }
    std::string name = Lower(line.substr(0, colon));
    std::string value(Trim(line.substr(colon + 1)));
    auto [it, added] = req.headers.emplace(name, value);
    if (!added) {
      if (name == "content-length") {
        return Refuse(400, "more than one Content-Length");
      }
      it->second += ", " + value;
    }
  }

  auto header = [&req](const char* name) -> std::string {
    auto it = req.headers.find(name);
    return it == req.headers.end() ? std::string() : Lower(it->second);
  };
  const std::string connection = header("connection");
  if (connection.find("close") != std::string::npos) req.keep_alive = false;
  if (connection.find("keep-alive") != std::string::npos) {
    req.keep_alive = true;
  }
  req.expect_continue = header("expect") == "100-continue";
  const bool wants_body = req.method == "POST" || req.method == "PUT";
  if (req.headers.count("transfer-encoding") != 0) {
    return Refuse(411,
                  "chunked request bodies are not accepted: send "
                  "Content-Length");
  }
  auto length = req.headers.find("content-length");
  if (length == req.headers.end()) {
    if (wants_body) {
      return Refuse(411, req.method + " needs a Content-Length");
    }
  } else {
    const std::string& text = length->second;
    uint64_t n = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) {
      return Refuse(400, "malformed Content-Length \"" + text + "\"");
    }
    if (n > limits.max_body_bytes) {
      return Refuse(413, "request body over " +
                             std::to_string(limits.max_body_bytes) + " bytes");
    }
    out.body_bytes = static_cast<size_t>(n);
  }
  out.state = HeadParse::State::kDone;
  out.head_bytes = end + kEndOfHead.size();
  return out;
}

std::string_view ReasonPhrase(int status) {
  switch (status) {
    case 100:
      return "Continue";
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 409:
      return "Conflict";
    case 411:
      return "Length Required";
    case 413:
      return "Payload Too Large";
    case 422:
      return "Unprocessable Entity";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Status";
  }
}

}  // namespace gcushare::http
