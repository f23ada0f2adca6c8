#include "tests/peers/apiserver/api_status.h"

#include <cstdio>
#include <utility>

namespace gcushare::apiserver {

std::string GoQuote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\x%02x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += "\"";
  return out;
}

std::string FieldError::Body() const {
  std::string body;
  switch (type) {
    case Type::kRequired:
      body = "Required value";
      break;
    case Type::kInvalid:
      body = "Invalid value: " + value;
      break;
    case Type::kNotSupported: {
      body = "Unsupported value: " + value;
      if (!supported.empty()) {
        body += ": supported values: ";
        for (size_t i = 0; i < supported.size(); ++i) {
          if (i > 0) body += ", ";
          body += supported[i];
        }
      }
      break;
    }
    case Type::kForbidden:
      body = "Forbidden";
      break;
  }
  if (!detail.empty()) body += ": " + detail;
  return body;
}

std::string FieldError::ToString() const {
  return field.empty() ? Body() : field + ": " + Body();
}

std::string FieldError::Reason() const {
  switch (type) {
    case Type::kRequired:
      return "FieldValueRequired";
    case Type::kInvalid:
      return "FieldValueInvalid";
    case Type::kNotSupported:
      return "FieldValueNotSupported";
    case Type::kForbidden:
      return "FieldValueForbidden";
  }
  return "";
}

ApiStatus ApiStatus::Failure(int code, std::string reason, std::string message,
                             std::optional<StatusDetails> details) {
  ApiStatus s;
  s.code_ = code;
  s.reason_ = std::move(reason);
  s.message_ = std::move(message);
  s.details_ = std::move(details);
  return s;
}

ApiStatus ApiStatus::Success(int code, std::optional<StatusDetails> details) {
  ApiStatus s;
  s.success_ = true;
  s.code_ = code;
  s.details_ = std::move(details);
  return s;
}

ApiStatus& ApiStatus::WithContinue(std::string token) {
  continue_ = std::move(token);
  return *this;
}

ApiStatus& ApiStatus::WithoutCode() {
  omit_code_ = true;
  return *this;
}

Json ApiStatus::ToJson() const {
  Json out = Json::object();
  out["kind"] = "Status";
  out["apiVersion"] = "v1";
  out["metadata"] = Json::object();
  if (!continue_.empty()) out["metadata"]["continue"] = continue_;
  out["status"] = success_ ? "Success" : "Failure";
  if (!message_.empty()) out["message"] = message_;
  if (!reason_.empty()) out["reason"] = reason_;
  if (details_.has_value()) {
    Json d = Json::object();
    if (!details_->name.empty()) d["name"] = details_->name;
    if (!details_->group.empty()) d["group"] = details_->group;
    if (!details_->kind.empty()) d["kind"] = details_->kind;
    if (!details_->uid.empty()) d["uid"] = details_->uid;
    if (!details_->causes.empty()) {
      Json causes = Json::array();
      for (const StatusCause& c : details_->causes) {
        Json cause = Json::object();
        if (!c.reason.empty()) cause["reason"] = c.reason;
        if (!c.message.empty()) cause["message"] = c.message;
        if (!c.field.empty()) cause["field"] = c.field;
        causes.push_back(std::move(cause));
      }
      d["causes"] = std::move(causes);
    }
    if (details_->retry_after_seconds != 0) {
      d["retryAfterSeconds"] = details_->retry_after_seconds;
    }
    out["details"] = std::move(d);
  }
  if (code_ != 0 && !omit_code_) out["code"] = code_;
  return out;
}

namespace {

// Details naming a qualified resource: "leases.coordination.k8s.io" is kind
// "leases", group "coordination.k8s.io" (resource names have no dots).
StatusDetails ResourceDetails(std::string_view resource,
                              std::string_view name) {
  StatusDetails d;
  d.name = std::string(name);
  const size_t dot = resource.find('.');
  d.kind = std::string(resource.substr(0, dot));
  if (dot != std::string_view::npos) {
    d.group = std::string(resource.substr(dot + 1));
  }
  return d;
}

}  // namespace

ApiStatus NotFoundStatus(std::string_view resource, std::string_view name) {
  StatusDetails d = ResourceDetails(resource, name);
  return ApiStatus::Failure(
      404, "NotFound",
      std::string(resource) + " " + GoQuote(name) + " not found", d);
}

ApiStatus AlreadyExistsStatus(std::string_view resource,
                              std::string_view name) {
  StatusDetails d = ResourceDetails(resource, name);
  return ApiStatus::Failure(
      409, "AlreadyExists",
      std::string(resource) + " " + GoQuote(name) + " already exists", d);
}

ApiStatus ConflictStatus(std::string_view resource, std::string_view name,
                         std::string_view cause) {
  StatusDetails d = ResourceDetails(resource, name);
  return ApiStatus::Failure(409, "Conflict",
                            "Operation cannot be fulfilled on " +
                                std::string(resource) + " " + GoQuote(name) +
                                ": " + std::string(cause),
                            d);
}

ApiStatus InvalidStatus(std::string_view group, std::string_view kind,
                        std::string_view name,
                        const std::vector<FieldError>& errors) {
  StatusDetails d;
  d.name = std::string(name);
  d.group = std::string(group);
  d.kind = std::string(kind);
  std::string aggregate;
  for (const FieldError& e : errors) {
    d.causes.push_back({e.Reason(), e.Body(), e.field});
    if (!aggregate.empty()) aggregate += ", ";
    aggregate += e.ToString();
  }
  if (errors.size() > 1) aggregate = "[" + aggregate + "]";
  std::string qualified = std::string(kind);
  if (!group.empty()) qualified += "." + std::string(group);
  return ApiStatus::Failure(
      422, "Invalid",
      qualified + " " + GoQuote(name) + " is invalid: " + aggregate, d);
}

ApiStatus BadRequestStatus(std::string message) {
  return ApiStatus::Failure(400, "BadRequest", std::move(message));
}

ApiStatus ExpiredStatus(std::string message) {
  return ApiStatus::Failure(410, "Expired", std::move(message));
}

ApiStatus UnauthorizedStatus() {
  return ApiStatus::Failure(401, "Unauthorized", "Unauthorized");
}

ApiStatus GenericResponseStatus(int code) {
  std::string reason;
  std::string message;
  switch (code) {
    case 404:
      reason = "NotFound";
      message = "the server could not find the requested resource";
      break;
    case 405:
      reason = "MethodNotAllowed";
      message =
          "the server does not allow this method on the requested resource";
      break;
    case 422:
      reason = "Invalid";
      message =
          "the server rejected our request due to an error in our request";
      break;
    default:
      message = "the server responded with the status code " +
                std::to_string(code) + " but did not return more information";
  }
  return ApiStatus::Failure(code, reason, message, StatusDetails{});
}

ApiStatus UnsupportedMediaTypeStatus() {
  return ApiStatus::Failure(415, "UnsupportedMediaType",
                            "415: Unsupported Media Type", StatusDetails{});
}

ApiStatus UnknownErrorStatus(std::string message) {
  return ApiStatus::Failure(500, "", std::move(message));
}

ApiStatus TooLargeResourceVersionStatus(std::string_view requested,
                                        std::string_view current) {
  StatusDetails d;
  d.causes.push_back(
      {"ResourceVersionTooLarge", "Too large resource version", ""});
  d.retry_after_seconds = 1;
  return ApiStatus::Failure(
      504, "Timeout",
      "Timeout: Too large resource version: " + std::string(requested) +
          ", current: " + std::string(current),
      d);
}

}  // namespace gcushare::apiserver
