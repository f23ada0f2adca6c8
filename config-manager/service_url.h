// The extender's URL as kube-scheduler must use it. kube-scheduler runs on
// the host network and resolves names through the host's resolver, which
// does not know Service DNS names: so the URL carries the Service's cluster
// IP, reachable from every node through kube-proxy.
//
// Thread-safety: as the KubeClient. Failure: the API error (404 when the
// Service does not exist yet: the caller retries), or FailedPrecondition
// for a headless Service.
#ifndef GCUSHARE_CONFIG_MANAGER_SERVICE_URL_H_
#define GCUSHARE_CONFIG_MANAGER_SERVICE_URL_H_

#include <string>
#include <string_view>

#include "kube/kube_client.h"
#include "status/status.h"

namespace gcushare::config_manager {

// "gcushare-system/gcushare-scheduler-extender" -> {ns, name};
// InvalidArgument otherwise.
StatusOr<std::pair<std::string, std::string>> ParseServiceRef(
    std::string_view ref);

// "http://<cluster IP>:<port>/gcushare-scheduler" for Service ns/name.
StatusOr<std::string> ExtenderUrlFromService(kube::KubeClient* client,
                                             std::string_view ns,
                                             std::string_view name, int port);

}  // namespace gcushare::config_manager

#endif  // GCUSHARE_CONFIG_MANAGER_SERVICE_URL_H_
