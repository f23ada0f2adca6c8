#include "tests/peers/apiserver/continue_token.h"

#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {
namespace {

constexpr char kAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string Base64UrlEncode(std::string_view in) {
  std::string out;
  size_t i = 0;
  while (i + 2 < in.size()) {
    uint32_t v = (static_cast<uint8_t>(in[i]) << 16) |
                 (static_cast<uint8_t>(in[i + 1]) << 8) |
                 static_cast<uint8_t>(in[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
    i += 3;
  }
  size_t rest = in.size() - i;
  if (rest == 1) {
    uint32_t v = static_cast<uint8_t>(in[i]) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
  } else if (rest == 2) {
    uint32_t v = (static_cast<uint8_t>(in[i]) << 16) |
                 (static_cast<uint8_t>(in[i + 1]) << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
  }
  return out;
}

StatusOr<std::string> Base64UrlDecode(std::string_view in) {
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '=') break;  // Tolerate padding.
    int v = -1;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    if (c >= '0' && c <= '9') v = c - '0' + 52;
    if (c == '-' || c == '+') v = 62;
    if (c == '_' || c == '/') v = 63;
    if (v < 0) {
      return InvalidArgumentError("illegal base64 data at input byte " +
                                  std::to_string(i));
    }
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xff);
    }
  }
  return out;
}

}  // namespace

std::string EncodeContinueToken(const ContinueToken& token) {
  Json j = Json::object();
  j["v"] = "meta.k8s.io/v1";
  j["rv"] = token.rv;
  j["start"] = token.start;
  return Base64UrlEncode(DumpJson(j));
}

StatusOr<ContinueToken> DecodeContinueToken(std::string_view text) {
  auto raw = Base64UrlDecode(text);
  if (!raw.ok()) {
    return InvalidArgumentError("continue key is not valid: " +
                                raw.status().message());
  }
  auto parsed = ParseJson(*raw);
  if (!parsed.ok() || !parsed->is_object() ||
      parsed->value("v", "") != "meta.k8s.io/v1" || !parsed->contains("rv") ||
      !(*parsed)["rv"].is_number_integer() || !parsed->contains("start") ||
      !(*parsed)["start"].is_string()) {
    return InvalidArgumentError(
        "continue key is not valid: incorrect encoded start resourceVersion "
        "(version meta.k8s.io/v1)");
  }
  ContinueToken token;
  token.rv = (*parsed)["rv"].get<int64_t>();
  token.start = (*parsed)["start"].get<std::string>();
  if (token.start.empty()) {
    return InvalidArgumentError("continue key is not valid: no start key");
  }
  return token;
}

}  // namespace gcushare::apiserver
