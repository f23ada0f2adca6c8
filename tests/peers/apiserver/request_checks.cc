#include "tests/peers/apiserver/request_checks.h"

#include "tests/peers/apiserver/object_meta.h"

namespace gcushare::apiserver {

std::optional<ApiStatus> EnsureNamespace(Json& object,
                                         const std::string& url_namespace) {
  std::string ns = MetaString(object, "namespace");
  if (ns == url_namespace) return std::nullopt;
  if (ns.empty() || url_namespace.empty()) {
    if (url_namespace.empty()) {
      object["metadata"].erase("namespace");
    } else {
      object["metadata"]["namespace"] = url_namespace;
    }
    CanonicalizeObject(object);
    return std::nullopt;
  }
  return BadRequestStatus(
      "the namespace of the provided object does not match the namespace "
      "sent on the request");
}

std::optional<ApiStatus> CheckName(const Json& object,
                                   const std::string& url_name,
                                   const std::string& url_namespace) {
  std::string name = MetaString(object, "name");
  if (name != url_name) {
    return BadRequestStatus("the name of the object (" + name +
                            ") does not match the name on the URL (" +
                            url_name + ")");
  }
  std::string ns = MetaString(object, "namespace");
  if (!url_namespace.empty() && !ns.empty() && ns != url_namespace) {
    return BadRequestStatus("the namespace of the object (" + ns +
                            ") does not match the namespace on the URL (" +
                            url_namespace + ")");
  }
  return std::nullopt;
}

}  // namespace gcushare::apiserver
