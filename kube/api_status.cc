#include "kube/api_status.h"

#include <string>

#include "json/bounded_parse.h"

namespace gcushare::kube {
namespace {

std::string StringOrEmpty(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

// A printable prefix of a body that is not a Status object.
std::string BodyPrefix(std::string_view body) {
  constexpr size_t kMax = 200;
  std::string out;
  for (char c : body.substr(0, kMax)) {
    out.push_back(c == '\n' || c == '\r' || c == '\t' ? ' ' : c);
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (body.size() > kMax) out += "...";
  return out;
}

}  // namespace

StatusCode StatusCodeForHttp(int http_code, std::string_view reason) {
  switch (http_code) {
    case 400:
    case 413:
    case 415:
    case 422:
      return StatusCode::kInvalidArgument;
    case 401:
      return StatusCode::kUnauthenticated;
    case 403:
      return StatusCode::kPermissionDenied;
    case 404:
      return StatusCode::kNotFound;
    case 405:
      return StatusCode::kUnimplemented;
    case 408:
      return StatusCode::kDeadlineExceeded;
    case 409:
      return reason == "AlreadyExists" ? StatusCode::kAlreadyExists
                                       : StatusCode::kAborted;
    case 410:
      return StatusCode::kOutOfRange;
    case 412:
      return StatusCode::kFailedPrecondition;
    case 429:
      return StatusCode::kResourceExhausted;
    default:
      break;
  }
  if (http_code >= 500 && http_code < 600) return StatusCode::kUnavailable;
  if (http_code >= 400 && http_code < 500) {
    return StatusCode::kFailedPrecondition;
  }
  return StatusCode::kUnknown;
}

Status StatusFromApiStatus(const nlohmann::json& status,
                           int fallback_http_code) {
  int http_code = fallback_http_code;
  if (status.is_object()) {
    auto code = status.find("code");
    if (code != status.end() && code->is_number_integer()) {
      http_code = code->get<int>();
    }
  }
  const std::string reason = StringOrEmpty(status, "reason");
  const std::string message = StringOrEmpty(status, "message");
  std::string text;
  if (!reason.empty() && !message.empty()) {
    text = reason + ": " + message;
  } else if (!reason.empty()) {
    text = reason;
  } else if (!message.empty()) {
    text = message;
  } else {
    text = "HTTP " + std::to_string(http_code) + " (Status without reason)";
  }
  StatusCode code = StatusCodeForHttp(http_code, reason);
  if (code == StatusCode::kOk) code = StatusCode::kUnknown;
  return Status(code, text).WithHttpCode(http_code);
}

Status StatusFromHttpResponse(int http_code, std::string_view body) {
  const nlohmann::json parsed =
      json::ParseJson(body, "Status").value_or(nlohmann::json());
  if (parsed.is_object() && StringOrEmpty(parsed, "kind") == "Status") {
    // The HTTP code is authoritative for the response itself.
    nlohmann::json copy = parsed;
    copy["code"] = http_code;
    return StatusFromApiStatus(copy, http_code);
  }
  std::string text = "HTTP " + std::to_string(http_code);
  const std::string prefix = BodyPrefix(body);
  text += prefix.empty() ? " (empty body)" : ": " + prefix;
  return Status(StatusCodeForHttp(http_code, ""), text).WithHttpCode(http_code);
}

std::optional<int> RetryAfterSecondsFromBody(std::string_view body) {
  if (body.empty() || body.front() != '{') return std::nullopt;
  const nlohmann::json parsed =
      json::ParseJson(body, "Status").value_or(nlohmann::json());
  if (!parsed.is_object()) return std::nullopt;
  auto details = parsed.find("details");
  if (details == parsed.end() || !details->is_object()) return std::nullopt;
  auto seconds = details->find("retryAfterSeconds");
  if (seconds == details->end() || !seconds->is_number_integer()) {
    return std::nullopt;
  }
  const int value = seconds->get<int>();
  if (value < 0) return std::nullopt;
  return value;
}

}  // namespace gcushare::kube
