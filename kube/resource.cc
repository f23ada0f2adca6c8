#include "kube/resource.h"

#include "base/url_query.h"

namespace gcushare::kube {

std::string Resource::CollectionPath(std::string_view ns) const {
  std::string path =
      group.empty() ? "/api/" + version : "/apis/" + group + "/" + version;
  if (namespaced && !ns.empty()) {
    path += "/namespaces/" + base::PercentEncode(ns);
  }
  return path + "/" + plural;
}

std::string Resource::ObjectPath(std::string_view ns, std::string_view name,
                                 std::string_view subresource) const {
  std::string path = CollectionPath(ns) + "/" + base::PercentEncode(name);
  if (!subresource.empty()) path += "/" + std::string(subresource);
  return path;
}

std::string Resource::DisplayName() const {
  return group.empty() ? plural : plural + "." + group;
}

}  // namespace gcushare::kube
