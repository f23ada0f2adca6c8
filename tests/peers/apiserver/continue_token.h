// The continue token of a paged list, in the real server's format: base64
// (URL alphabet, no padding) of {"v":"meta.k8s.io/v1","rv":<rv>,"start":
// "<next key>"}. Clients must treat it as opaque; the server decodes it to
// resume the list at `start` in the snapshot at `rv` (rv -1: the current
// state, as a token issued after expiry allows).
//
// Failure: Decode returns InvalidArgument ("continue key is not valid: ...").
// Thread-safety: pure functions.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_CONTINUE_TOKEN_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_CONTINUE_TOKEN_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::apiserver {

struct ContinueToken {
  int64_t rv = 0;
  std::string start;  // The first key to return.
};

std::string EncodeContinueToken(const ContinueToken& token);
StatusOr<ContinueToken> DecodeContinueToken(std::string_view text);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_CONTINUE_TOKEN_H_
