#include "tests/peers/nri_runtime/ttrpc_codec.h"

#include "tests/peers/nri_runtime/mux_codec.h"

namespace gcushare::nri_runtime {
namespace {

constexpr int kVarint = 0;
constexpr int kFixed64 = 1;
constexpr int kLengthDelimited = 2;
constexpr int kFixed32 = 5;

void PutVarint(uint64_t value, std::string& out) {
  while (value >= 0x80) {
    out += static_cast<char>((value & 0x7F) | 0x80);
    value >>= 7;
  }
  out += static_cast<char>(value);
}

void PutBytesField(int number, std::string_view bytes, std::string& out) {
  if (bytes.empty()) return;
  PutVarint((static_cast<uint64_t>(number) << 3) | kLengthDelimited, out);
  PutVarint(bytes.size(), out);
  out.append(bytes);
}

void PutVarintField(int number, uint64_t value, std::string& out) {
  if (value == 0) return;
  PutVarint((static_cast<uint64_t>(number) << 3) | kVarint, out);
  PutVarint(value, out);
}

// One field of a protobuf message as read off the wire.
struct WireField {
  uint64_t number = 0;
  int type = 0;
  uint64_t varint = 0;
  std::string_view bytes;
};

// Reads fields one by one; unknown fields are skipped by the caller.
class FieldReader {
 public:
  FieldReader(std::string_view data, std::string_view what)
      : data_(data), what_(what) {}

  // Next field into `field`; false at the end or on error (see status()).
  bool Next(WireField& field) {
    if (at_ == data_.size() || !status_.ok()) return false;
    uint64_t key = 0;
    if (!Varint(key)) return false;
    field.number = key >> 3;
    field.type = static_cast<int>(key & 7);
    if (field.number == 0) return Fail("field number 0");
    switch (field.type) {
      case kVarint:
        return Varint(field.varint);
      case kFixed64:
        return Skip(8, field);
      case kFixed32:
        return Skip(4, field);
      case kLengthDelimited: {
        uint64_t length = 0;
        if (!Varint(length)) return false;
        return Skip(length, field);
      }
      default:
        return Fail("unsupported wire type " + std::to_string(field.type));
    }
  }
  const Status& status() const { return status_; }

 private:
  bool Fail(const std::string& why) {
    status_ = InvalidArgumentError(std::string(what_) + ": " + why);
    return false;
  }
  bool Varint(uint64_t& value) {
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at_ == data_.size()) return Fail("truncated varint");
      const unsigned char byte = static_cast<unsigned char>(data_[at_++]);
      value |= static_cast<uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return Fail("varint longer than 10 bytes");
  }
  bool Skip(uint64_t length, WireField& field) {
    if (length > data_.size() - at_) return Fail("truncated field");
    field.bytes = data_.substr(at_, length);
    at_ += length;
    return true;
  }

  std::string_view data_;
  std::string_view what_;
  size_t at_ = 0;
  Status status_;
};

bool IsBytes(const WireField& f) { return f.type == kLengthDelimited; }

Status WrongType(std::string_view what, uint64_t number) {
  return InvalidArgumentError(std::string(what) + ": field " +
                              std::to_string(number) + " has the wrong type");
}

}  // namespace

std::string EncodeTtrpcFrame(const TtrpcFrame& frame) {
  std::string out;
  out.reserve(kTtrpcHeaderBytes + frame.body.size());
  PutUint32(static_cast<uint32_t>(frame.body.size()), out);
  PutUint32(frame.stream_id, out);
  out += static_cast<char>(frame.type);
  out += static_cast<char>(frame.flags);
  out += frame.body;
  return out;
}

StatusOr<std::optional<TtrpcFrame>> TtrpcReader::Next() {
  std::string_view rest = std::string_view(buffer_).substr(start_);
  if (rest.size() < kTtrpcHeaderBytes) return std::optional<TtrpcFrame>();
  const uint32_t length = GetUint32(rest, 0);
  if (length > kMaxTtrpcLength) {
    return ResourceExhaustedError("ttrpc message of " + std::to_string(length) +
                                  " bytes is over the 4 MiB limit");
  }
  if (rest.size() < kTtrpcHeaderBytes + length) {
    return std::optional<TtrpcFrame>();
  }
  TtrpcFrame frame;
  frame.stream_id = GetUint32(rest, 4);
  frame.type = static_cast<uint8_t>(rest[8]);
  frame.flags = static_cast<uint8_t>(rest[9]);
  frame.body.assign(rest.substr(kTtrpcHeaderBytes, length));
  start_ += kTtrpcHeaderBytes + length;
  if (start_ == buffer_.size()) {
    buffer_.clear();
    start_ = 0;
  } else if (start_ > (1u << 20)) {
    buffer_.erase(0, start_);
    start_ = 0;
  }
  return std::optional<TtrpcFrame>(std::move(frame));
}

std::string EncodeTtrpcRequest(const TtrpcRequest& request) {
  std::string out;
  PutBytesField(1, request.service, out);
  PutBytesField(2, request.method, out);
  PutBytesField(3, request.payload, out);
  PutVarintField(4, static_cast<uint64_t>(request.timeout_nano), out);
  for (const auto& [key, value] : request.metadata) {
    std::string entry;
    PutBytesField(1, key, entry);
    PutBytesField(2, value, entry);
    // An entry with an empty key and value is still one entry.
    PutVarint((5u << 3) | kLengthDelimited, out);
    PutVarint(entry.size(), out);
    out += entry;
  }
  return out;
}

StatusOr<TtrpcRequest> DecodeTtrpcRequest(std::string_view body) {
  constexpr std::string_view kWhat = "ttrpc.Request";
  TtrpcRequest request;
  FieldReader reader(body, kWhat);
  WireField f;
  while (reader.Next(f)) {
    switch (f.number) {
      case 1:
      case 2:
      case 3:
        if (!IsBytes(f)) return WrongType(kWhat, f.number);
        (f.number == 1   ? request.service
         : f.number == 2 ? request.method
                         : request.payload)
            .assign(f.bytes);
        break;
      case 4:
        if (f.type != kVarint) return WrongType(kWhat, f.number);
        request.timeout_nano = static_cast<int64_t>(f.varint);
        break;
      case 5: {
        if (!IsBytes(f)) return WrongType(kWhat, f.number);
        std::pair<std::string, std::string> entry;
        FieldReader kv(f.bytes, "ttrpc.KeyValue");
        WireField g;
        while (kv.Next(g)) {
          if (g.number != 1 && g.number != 2) continue;
          if (!IsBytes(g)) return WrongType("ttrpc.KeyValue", g.number);
          (g.number == 1 ? entry.first : entry.second).assign(g.bytes);
        }
        if (!kv.status().ok()) return kv.status();
        request.metadata.push_back(std::move(entry));
        break;
      }
      default:
        break;  // Unknown fields are skipped, as protobuf does.
    }
  }
  if (!reader.status().ok()) return reader.status();
  return request;
}

std::string EncodeTtrpcResponse(const TtrpcResponse& response) {
  std::string out;
  if (response.code != 0 || !response.message.empty()) {
    std::string status;
    PutVarintField(
        1, static_cast<uint64_t>(static_cast<int64_t>(response.code)), status);
    PutBytesField(2, response.message, status);
    PutVarint((1u << 3) | kLengthDelimited, out);
    PutVarint(status.size(), out);
    out += status;
  }
  PutBytesField(2, response.payload, out);
  return out;
}

StatusOr<TtrpcResponse> DecodeTtrpcResponse(std::string_view body) {
  constexpr std::string_view kWhat = "ttrpc.Response";
  TtrpcResponse response;
  FieldReader reader(body, kWhat);
  WireField f;
  while (reader.Next(f)) {
    if (f.number == 1) {
      if (!IsBytes(f)) return WrongType(kWhat, f.number);
      FieldReader status(f.bytes, "google.rpc.Status");
      WireField g;
      while (status.Next(g)) {
        if (g.number == 1) {
          if (g.type != kVarint) return WrongType("google.rpc.Status", 1);
          response.code = static_cast<int32_t>(g.varint);
        } else if (g.number == 2) {
          if (!IsBytes(g)) return WrongType("google.rpc.Status", 2);
          response.message.assign(g.bytes);
        }  // 3 (details) and unknown fields are skipped.
      }
      if (!status.status().ok()) return status.status();
    } else if (f.number == 2) {
      if (!IsBytes(f)) return WrongType(kWhat, f.number);
      response.payload.assign(f.bytes);
    }
  }
  if (!reader.status().ok()) return reader.status();
  return response;
}

}  // namespace gcushare::nri_runtime
