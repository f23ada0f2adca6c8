// Kubernetes `Status` objects (apimachinery's metav1.Status), built the way
// kube-apiserver builds them, so that error responses match the real server
// field for field: kind, apiVersion, metadata, status, message, reason,
// details, code, with Go's omitempty rules (empty strings, zero numbers and
// empty cause lists are left out; `details` is present only when the real
// constructor sets it).
//
// The constructors mirror k8s.io/apimachinery/pkg/api/errors (NewNotFound,
// NewAlreadyExists, NewConflict, NewInvalid, NewBadRequest, ...) and their
// message formats.
//
// Thread-safety: values. Failure: none; constructors cannot fail.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_API_STATUS_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_API_STATUS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {

// One entry of details.causes.
struct StatusCause {
  std::string reason;  // "FieldValueRequired", ...
  std::string message;
  std::string field;
};

struct StatusDetails {
  std::string name;
  std::string group;
  std::string kind;
  std::string uid;
  std::vector<StatusCause> causes;
  int retry_after_seconds = 0;
};

// A validation error (apimachinery's field.Error).
struct FieldError {
  enum class Type { kRequired, kInvalid, kNotSupported, kForbidden };
  Type type = Type::kInvalid;
  std::string field;  // "metadata.name"
  // The offending value, already formatted as Go's %v/%q would ("\"x\"").
  std::string value;
  std::string detail;
  std::vector<std::string> supported;  // kNotSupported only, quoted already.

  // "Required value: <detail>", "Invalid value: \"x\": <detail>", ...
  std::string Body() const;
  // "<field>: <Body()>".
  std::string ToString() const;
  // "FieldValueRequired", ...
  std::string Reason() const;
};

// Quotes like Go's %q for the strings this server handles ("a\"b").
std::string GoQuote(std::string_view s);

class ApiStatus {
 public:
  ApiStatus() = default;

  int code() const { return code_; }
  const std::string& reason() const { return reason_; }
  const std::string& message() const { return message_; }
  bool success() const { return success_; }
  const std::optional<StatusDetails>& details() const { return details_; }

  // The Status object, with kind and apiVersion.
  Json ToJson() const;

  // Builders used by the constructors below.
  static ApiStatus Failure(int code, std::string reason, std::string message,
                           std::optional<StatusDetails> details = {});
  static ApiStatus Success(int code, std::optional<StatusDetails> details = {});
  // Sets metadata.continue (an expired continue token's replacement).
  ApiStatus& WithContinue(std::string token);
  // Code 0 is left out, like the real server's Success on DELETE.
  ApiStatus& WithoutCode();

 private:
  bool success_ = false;
  int code_ = 0;
  bool omit_code_ = false;
  std::string reason_;
  std::string message_;
  std::optional<StatusDetails> details_;
  std::string continue_;
};

// The resource arguments below may be qualified by a group
// ("leases.coordination.k8s.io"): the message names it so and details carry
// kind "leases" and group "coordination.k8s.io", as NewNotFound etc. do with
// a GroupResource.
// 404 `pods "p1" not found`, details {name, kind: resource}.
ApiStatus NotFoundStatus(std::string_view resource, std::string_view name);
// 409 AlreadyExists `pods "p1" already exists`.
ApiStatus AlreadyExistsStatus(std::string_view resource, std::string_view name);
// 409 Conflict `Operation cannot be fulfilled on <resource> "<name>": <cause>`.
ApiStatus ConflictStatus(std::string_view resource, std::string_view name,
                         std::string_view cause);
// The cause text of a stale resourceVersion.
inline constexpr std::string_view kOptimisticLockMessage =
    "the object has been modified; please apply your changes to the latest "
    "version and try again";
// 422 Invalid `<Kind[.group]> "<name>" is invalid: <errors>`.
ApiStatus InvalidStatus(std::string_view group, std::string_view kind,
                        std::string_view name,
                        const std::vector<FieldError>& errors);
// 400 BadRequest, no details.
ApiStatus BadRequestStatus(std::string message);
// 410 Expired, no details.
ApiStatus ExpiredStatus(std::string message);
// 401 Unauthorized, as the authentication filter writes it.
ApiStatus UnauthorizedStatus();
// apimachinery's NewGenericServerResponse without a resource: the fixed
// message of the code (404 "the server could not find the requested
// resource", 405, 422 "the server rejected our request due to an error in our
// request", ...) and empty details.
ApiStatus GenericResponseStatus(int code);
// 415 as go-restful's content-type filter answers a PATCH it cannot consume:
// message "415: Unsupported Media Type", empty details.
ApiStatus UnsupportedMediaTypeStatus();
// An error that is not an API status (the real ErrorToAPIStatus fallback):
// code 500, no reason, the bare message.
ApiStatus UnknownErrorStatus(std::string message);
// 504 Timeout `Timeout: Too large resource version: <rv>, current: <cur>`.
ApiStatus TooLargeResourceVersionStatus(std::string_view requested,
                                        std::string_view current);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_API_STATUS_H_
