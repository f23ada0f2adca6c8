// Errors as values at module boundaries, in the style of absl::Status.
//
// A Status is either OK or carries a code and a one-line message meant for an
// operator ("fake cards file /x.yaml line 4: memoryMiB must be positive").
// Functions that produce a value return StatusOr<T>. Neither type throws;
// reading the value of a non-OK StatusOr aborts the process (a programming
// error, like absl's CHECK).
//
// Thread-safety: values; a const Status/StatusOr may be read from any thread.
#ifndef GCUSHARE_STATUS_STATUS_H_
#define GCUSHARE_STATUS_STATUS_H_

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace gcushare {

// The canonical codes, with the meaning of google.rpc.Code.
enum class StatusCode {
  kOk = 0,
  kCancelled = 1,
  kUnknown = 2,
  kInvalidArgument = 3,
  kDeadlineExceeded = 4,
  kNotFound = 5,
  kAlreadyExists = 6,
  kPermissionDenied = 7,
  kResourceExhausted = 8,
  kFailedPrecondition = 9,
  kAborted = 10,
  kOutOfRange = 11,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,
  kDataLoss = 15,
  kUnauthenticated = 16,
};

// "INVALID_ARGUMENT" etc.
std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message);

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // The HTTP status of the response that produced this error (e.g. 409 or
  // 410 from the API server), or 0 when no HTTP response did.
  int http_code() const { return http_code_; }
  Status WithHttpCode(int http_code) const {
    Status copy = *this;
    if (!ok()) copy.http_code_ = http_code;
    return copy;
  }

  // "NOT_FOUND: no such card" or "OK".
  std::string ToString() const;

  // Returns a copy whose message is "<context>: <message>"; OK stays OK.
  Status WithContext(std::string_view context) const;

  friend bool operator==(const Status& a, const Status& b) {
    return a.code_ == b.code_ && a.message_ == b.message_ &&
           a.http_code_ == b.http_code_;
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  int http_code_ = 0;
};

std::ostream& operator<<(std::ostream& os, const Status& status);

inline Status OkStatus() { return Status(); }
Status InvalidArgumentError(std::string message);
Status NotFoundError(std::string message);
Status AlreadyExistsError(std::string message);
Status FailedPreconditionError(std::string message);
Status PermissionDeniedError(std::string message);
Status UnavailableError(std::string message);
Status InternalError(std::string message);
Status UnimplementedError(std::string message);
Status ResourceExhaustedError(std::string message);
Status DeadlineExceededError(std::string message);
Status AbortedError(std::string message);
Status OutOfRangeError(std::string message);
Status DataLossError(std::string message);
Status UnauthenticatedError(std::string message);

// Status from errno: ENOENT -> kNotFound, EACCES/EPERM -> kPermissionDenied,
// and so on. The message is "<context>: <strerror(errnum)>".
Status ErrnoToStatus(int errnum, std::string_view context);

namespace internal {
[[noreturn]] void DieBecauseNotOk(const Status& status);
}  // namespace internal

// Holds a T or a non-OK Status.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  // Implicit on purpose, so that functions can `return value;` or
  // `return NotFoundError(...);`. Constructing from an OK Status is a
  // programming error and is turned into kInternal.
  StatusOr(const Status& status) : status_(status) {  // NOLINT
    if (status_.ok()) status_ = InternalError("StatusOr built from OK status");
  }
  StatusOr(Status&& status) : status_(std::move(status)) {  // NOLINT
    if (status_.ok()) status_ = InternalError("StatusOr built from OK status");
  }
  StatusOr(const T& value) : value_(value) {}        // NOLINT
  StatusOr(T&& value) : value_(std::move(value)) {}  // NOLINT
  template <typename U, typename = std::enable_if_t<
                            std::is_constructible_v<T, U&&> &&
                            !std::is_same_v<std::decay_t<U>, Status> &&
                            !std::is_same_v<std::decay_t<U>, StatusOr>>>
  StatusOr(U&& value) : value_(T(std::forward<U>(value))) {}  // NOLINT

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  const T& value() const& {
    if (!ok()) internal::DieBecauseNotOk(status_);
    return *value_;
  }
  T& value() & {
    if (!ok()) internal::DieBecauseNotOk(status_);
    return *value_;
  }
  T&& value() && {
    if (!ok()) internal::DieBecauseNotOk(status_);
    return std::move(*value_);
  }
  // The value, or `fallback` when not OK.
  template <typename U>
  T value_or(U&& fallback) const& {
    return ok() ? *value_ : static_cast<T>(std::forward<U>(fallback));
  }
  template <typename U>
  T value_or(U&& fallback) && {
    return ok() ? std::move(*value_)
                : static_cast<T>(std::forward<U>(fallback));
  }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  Status status_;  // OK exactly when value_ holds a value.
  std::optional<T> value_;
};

}  // namespace gcushare

// Returns from the enclosing function when `expr` (a Status) is not OK.
#define GCUSHARE_RETURN_IF_ERROR(expr)                   \
  do {                                                   \
    ::gcushare::Status gcushare_status_ = (expr);        \
    if (!gcushare_status_.ok()) return gcushare_status_; \
  } while (0)

#define GCUSHARE_STATUS_CONCAT_INNER_(a, b) a##b
#define GCUSHARE_STATUS_CONCAT_(a, b) GCUSHARE_STATUS_CONCAT_INNER_(a, b)

// `GCUSHARE_ASSIGN_OR_RETURN(auto x, MakeX());` declares x from the value of
// a StatusOr, or returns its Status from the enclosing function.
#define GCUSHARE_ASSIGN_OR_RETURN(lhs, expr) \
  GCUSHARE_ASSIGN_OR_RETURN_IMPL_(           \
      GCUSHARE_STATUS_CONCAT_(gcushare_statusor_, __LINE__), lhs, expr)
// tmp is a name and lhs may be a declaration ("auto x"): neither can be
// parenthesized.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define GCUSHARE_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                    \
  if (!tmp.ok()) return tmp.status();                   \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)

#endif  // GCUSHARE_STATUS_STATUS_H_
