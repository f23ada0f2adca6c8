#include "nri-plugin/ttrpc/bounded_parse.h"

#include <google/protobuf/io/coded_stream.h>

#include <string>

namespace gcushare::nri::ttrpc {
namespace {

bool ParseWithLimit(std::string_view bytes,
                    google::protobuf::MessageLite* message, int limit) {
  google::protobuf::io::CodedInputStream in(
      reinterpret_cast<const uint8_t*>(bytes.data()),
      static_cast<int>(bytes.size()));
  in.SetRecursionLimit(limit);
  return message->ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
}

}  // namespace

Status ParseBounded(std::string_view bytes,
                    google::protobuf::MessageLite* message,
                    std::string_view what) {
  if (ParseWithLimit(bytes, message, kMaxProtoNesting)) return OkStatus();
  // Only to name the cause: protobuf's default limit is still bounded.
  if (ParseWithLimit(
          bytes, message,
          google::protobuf::io::CodedInputStream::GetDefaultRecursionLimit())) {
    message->Clear();
    return InvalidArgumentError(std::string(what) + ": nested deeper than " +
                                std::to_string(kMaxProtoNesting) + " levels");
  }
  message->Clear();
  return InvalidArgumentError(std::string(what) + ": does not parse as " +
                              message->GetTypeName() +
                              " (malformed, or nested deeper than " +
                              std::to_string(kMaxProtoNesting) + " levels)");
}

}  // namespace gcushare::nri::ttrpc
