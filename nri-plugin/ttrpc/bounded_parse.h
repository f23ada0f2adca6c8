// Parsing protobuf bytes that come from the other end of an NRI
// connection (ttrpc envelopes and NRI messages) with bounds: size is
// bounded by the frame limits (ttrpc 4 MiB, mux 16 MiB); nesting here, at
// kMaxProtoNesting levels of messages or groups (NRI's deepest message
// needs fewer than 10; protobuf's own default is 100), so that a crafted
// message cannot exhaust the reader's stack or time.
//
// Failure: kInvalidArgument "<what>: nested deeper than 32 levels", or
// "<what>: does not parse as <type>" (malformed). `message` is then left
// in an unspecified state. Thread-compatible.
#ifndef GCUSHARE_NRI_PLUGIN_TTRPC_BOUNDED_PARSE_H_
#define GCUSHARE_NRI_PLUGIN_TTRPC_BOUNDED_PARSE_H_

#include <google/protobuf/message_lite.h>

#include <string_view>

#include "status/status.h"

namespace gcushare::nri::ttrpc {

inline constexpr int kMaxProtoNesting = 32;

Status ParseBounded(std::string_view bytes,
                    google::protobuf::MessageLite* message,
                    std::string_view what);

}  // namespace gcushare::nri::ttrpc

#endif  // GCUSHARE_NRI_PLUGIN_TTRPC_BOUNDED_PARSE_H_
