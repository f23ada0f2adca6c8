// ApiResult<T>: a T, or the Kubernetes Status the request must fail with.
//
// The HTTP-facing modules return it where the caller needs the exact Status
// object the real server would send (reason, details, causes), which a plain
// gcushare::Status cannot carry. Pure logic (selectors, patches, store) uses
// gcushare::Status; the handlers translate.
//
// Thread-safety: a value. Reading value() of an error aborts (programming
// error), like StatusOr.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_API_RESULT_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_API_RESULT_H_

#include <cstdlib>
#include <utility>
#include <variant>

#include "tests/peers/apiserver/api_status.h"

namespace gcushare::apiserver {

template <typename T>
class ApiResult {
 public:
  ApiResult(T value) : v_(std::move(value)) {}          // NOLINT
  ApiResult(ApiStatus error) : v_(std::move(error)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  const T& value() const& {
    if (!ok()) std::abort();
    return std::get<0>(v_);
  }
  T& value() & {
    if (!ok()) std::abort();
    return std::get<0>(v_);
  }
  T&& value() && {
    if (!ok()) std::abort();
    return std::get<0>(std::move(v_));
  }
  const ApiStatus& error() const {
    if (ok()) std::abort();
    return std::get<1>(v_);
  }

 private:
  std::variant<T, ApiStatus> v_;
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_API_RESULT_H_
