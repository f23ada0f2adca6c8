// The body of POST /api/v1/namespaces/<ns>/pods/<pod>/binding
// (docs/protocols.md 3.5): a v1 Binding whose metadata.name is the pod, with
// the optional UID precondition and annotations to merge into the pod.
//
// Pure function; thread-safe.
#ifndef GCUSHARE_KUBE_BINDING_H_
#define GCUSHARE_KUBE_BINDING_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace gcushare::kube {

nlohmann::json BuildBinding(
    std::string_view ns, std::string_view pod, std::string_view uid,
    std::string_view node,
    const std::map<std::string, std::string>& annotations);

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_BINDING_H_
