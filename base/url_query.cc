#include "base/url_query.h"

namespace gcushare::base {

std::string PercentEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
        c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

UrlQuery& UrlQuery::Add(std::string_view key, std::string_view value) {
  params_.emplace_back(std::string(key), std::string(value));
  return *this;
}

UrlQuery& UrlQuery::AddIfSet(std::string_view key, std::string_view value) {
  if (!value.empty()) Add(key, value);
  return *this;
}

std::string UrlQuery::Encode() const {
  std::string out;
  for (const auto& [key, value] : params_) {
    out += out.empty() ? "?" : "&";
    out += PercentEncode(key) + "=" + PercentEncode(value);
  }
  return out;
}

}  // namespace gcushare::base
