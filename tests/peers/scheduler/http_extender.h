// Extender over HTTP, like kube-scheduler's HTTPExtender: POST
// <urlPrefix>/<verb> with the JSON body of extender_wire.h and the headers
// Go's client sends (Content-Type: application/json, User-Agent:
// Go-http-client/1.1 from the HttpClient, Accept-Encoding: gzip, no Accept);
// HTTP 200 only; httpTimeout as the whole-call limit. No retries.
//
// Ownership: `http` is borrowed and must outlive the extender.
// Thread-safety: as the HttpClient (CurlHttpClient: concurrent calls OK).
#ifndef GCUSHARE_TESTS_PEERS_SCHEDULER_HTTP_EXTENDER_H_
#define GCUSHARE_TESTS_PEERS_SCHEDULER_HTTP_EXTENDER_H_

#include <string>
#include <string_view>
#include <vector>

#include "kube/http_client.h"
#include "tests/peers/scheduler/extender.h"

namespace gcushare::scheduler {

// The User-Agent kube-scheduler's Go HTTP client sends.
inline constexpr std::string_view kGoUserAgent = "Go-http-client/1.1";

class HttpExtender : public Extender {
 public:
  HttpExtender(ExtenderConfig config, kube::HttpClient* http);

  const ExtenderConfig& config() const override { return config_; }
  StatusOr<ExtenderFilterResult> Filter(
      const nlohmann::json& pod, const std::vector<ObjectPtr>& nodes) override;
  StatusOr<std::vector<HostPriority>> Prioritize(
      const nlohmann::json& pod, const std::vector<ObjectPtr>& nodes) override;
  Status Bind(const nlohmann::json& pod, std::string_view node) override;

  // rtrim(urlPrefix, "/") + "/" + verb
  std::string UrlFor(std::string_view verb) const;

 private:
  // POSTs `body`; the response body of a 200, else an error.
  StatusOr<std::string> Send(std::string_view verb, std::string body);

  const ExtenderConfig config_;
  kube::HttpClient* const http_;
};

}  // namespace gcushare::scheduler

#endif  // GCUSHARE_TESTS_PEERS_SCHEDULER_HTTP_EXTENDER_H_
