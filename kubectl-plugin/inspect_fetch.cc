#include "kubectl-plugin/inspect_fetch.h"

#include <cctype>

#include "contract/names.h"

namespace gcushare::kubectl_plugin {
namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.substr(text.size() - suffix.size()) == suffix;
}

// Percent-encodes what is not unreserved (node names are DNS names; this
// only guards against odd input).
std::string EscapeSegment(std::string_view segment) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : segment) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace

StatusOr<std::string> InspectUrl(std::string_view base, std::string_view node) {
  if (!(StartsWith(base, "http://") || StartsWith(base, "https://")) ||
      base.find('?') != std::string_view::npos ||
      base.find('#') != std::string_view::npos) {
    return InvalidArgumentError(
        "extender URL \"" + std::string(base) +
        "\" is not an http:// or https:// URL without query, e.g. "
        "http://127.0.0.1:32766");
  }
  const size_t host_start = base.find("//") + 2;
  if (host_start == base.size() || base[host_start] == '/') {
    return InvalidArgumentError("extender URL \"" + std::string(base) +
                                "\" has no host");
  }
  std::string url(base);
  while (EndsWith(url, "/")) url.pop_back();
  if (!EndsWith(url, contract::kExtenderPathPrefix)) {
    url += contract::kExtenderPathPrefix;
  }
  url += "/inspect";
  if (!node.empty()) url += "/" + EscapeSegment(node);
  return url;
}

StatusOr<std::string> FetchInspect(kube::HttpClient* client,
                                   std::string_view base, std::string_view node,
                                   std::chrono::milliseconds timeout) {
  GCUSHARE_ASSIGN_OR_RETURN(std::string url, InspectUrl(base, node));
  kube::HttpRequest request;
  request.method = "GET";
  request.url = url;
  request.headers.emplace_back("Accept", "application/json");
  request.timeout = timeout;
  kube::HttpResult result = client->Send(request);
  if (!result.status.ok()) {
    return UnavailableError(
        "cannot reach the GCUShare extender at " + url + ": " +
        result.status.message() +
        " (set --extender-url or GCUSHARE_EXTENDER_URL; see README "
        "\"kubectl inspect-gcushare\")");
  }
  const kube::HttpResponse& response = result.response;
  if (response.status_code == 200) return response.body;
  std::string body = response.body.substr(0, 200);
  while (!body.empty() &&
         std::isspace(static_cast<unsigned char>(body.back()))) {
    body.pop_back();
  }
  if (response.status_code == 404 && !node.empty()) {
    return NotFoundError("the extender knows no GCUShare node \"" +
                         std::string(node) + "\" (" + url + ": " + body + ")");
  }
  return UnavailableError("GET " + url + ": HTTP " +
                          std::to_string(response.status_code) +
                          (body.empty() ? "" : ": " + body));
}

}  // namespace gcushare::kubectl_plugin
