// Fetching the extender's inspect JSON over HTTP for
// kubectl-inspect-gcushare.
//
// The base URL may be the extender itself (http://127.0.0.1:32766 after
// `kubectl port-forward`), its API prefix (.../gcushare-scheduler), or the
// API server's service proxy
// (http://127.0.0.1:8001/api/v1/namespaces/kube-system/services/
//  gcushare-scheduler-extender:32766/proxy after `kubectl proxy`):
// /gcushare-scheduler is appended unless the URL already ends with it.
//
// Thread-safety: as the HttpClient. Failure: InvalidArgument for a bad
// URL; NotFound for a node the extender does not know; Unavailable for no
// answer or a non-200 answer (with the status and the body's start).
#ifndef GCUSHARE_KUBECTL_PLUGIN_INSPECT_FETCH_H_
#define GCUSHARE_KUBECTL_PLUGIN_INSPECT_FETCH_H_

#include <chrono>
#include <string>
#include <string_view>

#include "kube/http_client.h"
#include "status/status.h"

namespace gcushare::kubectl_plugin {

// The URL of /inspect (node empty) or /inspect/<node>. InvalidArgument
// unless `base` is an http:// or https:// URL.
StatusOr<std::string> InspectUrl(std::string_view base, std::string_view node);

// GETs the inspect JSON and returns the body.
StatusOr<std::string> FetchInspect(kube::HttpClient* client,
                                   std::string_view base, std::string_view node,
                                   std::chrono::milliseconds timeout);

}  // namespace gcushare::kubectl_plugin

#endif  // GCUSHARE_KUBECTL_PLUGIN_INSPECT_FETCH_H_
