// API objects and wire lines for tests and the benchmark: pods, lists,
// watch event lines and Status errors as the API server writes them.
//
// Pure functions; thread-safe.
#ifndef GCUSHARE_KUBE_TESTING_API_OBJECTS_H_
#define GCUSHARE_KUBE_TESTING_API_OBJECTS_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gcushare::kube::testing {

// A small pod with namespace, name, resourceVersion and optional node.
nlohmann::json Pod(const std::string& ns, const std::string& name,
                   const std::string& resource_version,
                   const std::string& node = "");

// A realistic pod (labels, annotations, owner, two containers with
// resources, env, volume mounts, status conditions), about 2 KB of JSON.
nlohmann::json RealisticPod(const std::string& ns, const std::string& name,
                            const std::string& resource_version);

// {"kind":"PodList","apiVersion":"v1","metadata":{...},"items":[...]}.
std::string PodList(const std::vector<nlohmann::json>& items,
                    const std::string& resource_version,
                    const std::string& continue_token = "");

// {"type":"<type>","object":<object>} followed by "\n".
std::string WatchLine(const std::string& type, const nlohmann::json& object);

// A BOOKMARK line carrying only metadata.resourceVersion.
std::string BookmarkLine(const std::string& resource_version);

// A meta/v1 Status object of a failure.
nlohmann::json FailureStatus(int code, const std::string& reason,
                             const std::string& message);

}  // namespace gcushare::kube::testing

#endif  // GCUSHARE_KUBE_TESTING_API_OBJECTS_H_
