// Test support: the real CurlKubeClient and Informer options with short
// backoffs, so that recovery after a dropped connection or a restarted
// server takes tens of milliseconds rather than the production seconds.
// Everything else (timeouts, retry rules, token handling) is as in
// production.
//
// Thread-safety: free functions.
#ifndef GCUSHARE_TESTS_KUBE_CLIENT_TEST_CLIENTS_H_
#define GCUSHARE_TESTS_KUBE_CLIENT_TEST_CLIENTS_H_

#include <memory>
#include <string>

#include "base/clock.h"
#include "kube/config.h"
#include "kube/curl_kube_client.h"
#include "kube/informer.h"
#include "status/status.h"

namespace gcushare::kube_client_test {

// A client for `config`; `clock` (borrowed, may be null: real) drives retry
// backoff and token re-reads.
StatusOr<std::unique_ptr<kube::CurlKubeClient>> NewClient(
    const kube::ClientConfig& config, base::Clock* clock = nullptr);

// A client for a server URL, without authentication.
StatusOr<std::unique_ptr<kube::CurlKubeClient>> NewClient(
    const std::string& server_url);

// Informer options with a 50 ms..1 s backoff; `clock` may be null (real).
kube::InformerOptions FastInformerOptions(base::Clock* clock = nullptr);

}  // namespace gcushare::kube_client_test

#endif  // GCUSHARE_TESTS_KUBE_CLIENT_TEST_CLIENTS_H_
