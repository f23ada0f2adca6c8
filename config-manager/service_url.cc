#include "config-manager/service_url.h"

#include "config-manager/scheduler_config.h"

namespace gcushare::config_manager {

StatusOr<std::pair<std::string, std::string>> ParseServiceRef(
    std::string_view ref) {
  size_t slash = ref.find('/');
  if (slash == std::string_view::npos || slash == 0 ||
      slash + 1 == ref.size() ||
      ref.find('/', slash + 1) != std::string_view::npos) {
    return InvalidArgumentError("not a <namespace>/<service>: \"" +
                                std::string(ref) + "\"");
  }
  return std::make_pair(std::string(ref.substr(0, slash)),
                        std::string(ref.substr(slash + 1)));
}

StatusOr<std::string> ExtenderUrlFromService(kube::KubeClient* client,
                                             std::string_view ns,
                                             std::string_view name, int port) {
  const kube::Resource services{"", "v1", "services", true};
  GCUSHARE_ASSIGN_OR_RETURN(nlohmann::json service,
                            client->Get(services, ns, name));
  const std::string where =
      "Service " + std::string(ns) + "/" + std::string(name);
  const nlohmann::json* ip = nullptr;
  if (auto spec = service.find("spec");
      spec != service.end() && spec->is_object()) {
    if (auto it = spec->find("clusterIP");
        it != spec->end() && it->is_string()) {
      ip = &*it;
    }
  }
  if (ip == nullptr || ip->get<std::string>().empty()) {
    return FailedPreconditionError(where + " has no spec.clusterIP yet");
  }
  if (ip->get<std::string>() == "None") {
    return FailedPreconditionError(
        where +
        " is headless (clusterIP None); kube-scheduler needs a "
        "cluster IP, or pass --extender-url");
  }
  return ExtenderUrl(ip->get<std::string>(), port);
}

}  // namespace gcushare::config_manager
