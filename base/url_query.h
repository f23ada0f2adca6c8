// Builds a URL query string: "?labelSelector=app%3Dfoo&watch=true".
// Keys keep their insertion order; values are percent-encoded.
//
// A value type; thread-compatible.
#ifndef GCUSHARE_BASE_URL_QUERY_H_
#define GCUSHARE_BASE_URL_QUERY_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gcushare::base {

// Percent-encodes everything outside RFC 3986's unreserved set.
std::string PercentEncode(std::string_view text);

class UrlQuery {
 public:
  // Adds key=value.
  UrlQuery& Add(std::string_view key, std::string_view value);
  // Adds key=value only when value is not empty.
  UrlQuery& AddIfSet(std::string_view key, std::string_view value);

  // "" when empty, else "?k=v&...".
  std::string Encode() const;

 private:
  std::vector<std::pair<std::string, std::string>> params_;
};

}  // namespace gcushare::base

#endif  // GCUSHARE_BASE_URL_QUERY_H_
