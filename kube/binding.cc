#include "kube/binding.h"

namespace gcushare::kube {

nlohmann::json BuildBinding(
    std::string_view ns, std::string_view pod, std::string_view uid,
    std::string_view node,
    const std::map<std::string, std::string>& annotations) {
  nlohmann::json metadata = {{"name", pod}, {"namespace", ns}};
  if (!uid.empty()) metadata["uid"] = uid;
  if (!annotations.empty()) metadata["annotations"] = annotations;
  return {
      {"apiVersion", "v1"},
      {"kind", "Binding"},
      {"metadata", std::move(metadata)},
      {"target", {{"apiVersion", "v1"}, {"kind", "Node"}, {"name", node}}},
  };
}

}  // namespace gcushare::kube
