// Standard base64 (RFC 4648 section 4) decoding, as used by the kubeconfig
// "-data" fields. Padding is optional and ASCII whitespace is ignored.
//
// Pure function; thread-safe.
#ifndef GCUSHARE_BASE_BASE64_H_
#define GCUSHARE_BASE_BASE64_H_

#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::base {

// InvalidArgument naming the offending character's position when `encoded`
// is not valid base64.
StatusOr<std::string> Base64Decode(std::string_view encoded);

}  // namespace gcushare::base

#endif  // GCUSHARE_BASE_BASE64_H_
