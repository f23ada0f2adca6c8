#include "tests/e2e/checks.h"

#include <sys/stat.h>

#include <set>

#include "contract/annotations.h"
#include "contract/pod_request.h"
#include "kube/json_fields.h"
#include "kube/resource.h"

namespace gcushare::e2e {
namespace {

// The /dev/gcu* paths and ENFLAME_VISIBLE_DEVICES of a created container.
std::pair<std::set<std::string>, std::string> CardsOf(
    const nlohmann::json& spec) {
  std::set<std::string> devices;
  std::string visible;
  const nlohmann::json* list = kube::FindPath(spec, {"linux", "devices"});
  if (list != nullptr && list->is_array()) {
    for (const nlohmann::json& d : *list) {
      const std::string path = d.value("path", "");
      if (path.rfind("/dev/gcu", 0) == 0) devices.insert(path);
    }
  }
  const nlohmann::json* env = kube::FindPath(spec, {"process", "env"});
  if (env != nullptr && env->is_array()) {
    for (const nlohmann::json& e : *env) {
      if (e.is_string() &&
          e.get<std::string>().rfind("ENFLAME_VISIBLE_DEVICES=", 0) == 0) {
        visible = e.get<std::string>().substr(24);
      }
    }
  }
  return {devices, visible};
}

}  // namespace

StatusOr<Placement> CheckPlacement(LocalCluster& cluster, int64_t card_units,
                                   const std::string& ns) {
  GCUSHARE_ASSIGN_OR_RETURN(
      kube::ObjectList pods,
      cluster.client().List(kube::Resource::Pods(), ns, {}));
  // The last container the runtime created per pod/container.
  std::map<std::string, nlohmann::json> created;
  for (const CreatedContainer& c : cluster.CreatedContainers()) {
    if (c.error.empty()) created[c.pod + "/" + c.container] = c.spec;
  }
  Placement placement;
  for (const nlohmann::json& pod : pods.items) {
    const std::string key = ns + "/" + kube::NameOf(pod);
    if (kube::StringAt(pod, {"spec", "nodeName"}).empty()) continue;
    const nlohmann::json* annotations =
        kube::FindPath(pod, {"metadata", "annotations"});
    GCUSHARE_ASSIGN_OR_RETURN(
        std::optional<contract::CardAssignment> assignment,
        contract::DecodeAssignment(annotations ? *annotations
                                               : nlohmann::json()));
    if (!assignment) continue;
    GCUSHARE_ASSIGN_OR_RETURN(contract::PodRequest request,
                              contract::ComputePodRequest(pod));
    ++placement.pods;
    for (uint32_t card : assignment->cards) {
      const int index = static_cast<int>(card);
      if (request.cards > 0) {
        if (placement.whole.count(index) || placement.used_units[index] > 0) {
          return InternalError("card " + std::to_string(index) +
                               " of whole-card pod " + key + " is shared");
        }
        placement.whole[index] = key;
      } else {
        if (placement.whole.count(index)) {
          return InternalError("shared pod " + key + " is on card " +
                               std::to_string(index) + ", a whole card of " +
                               placement.whole[index]);
        }
        placement.used_units[index] +=
            static_cast<int64_t>(request.memory_units);
        if (placement.used_units[index] > card_units) {
          return InternalError("card " + std::to_string(index) +
                               " is over-committed: " +
                               std::to_string(placement.used_units[index]) +
                               " units after " + key);
        }
      }
    }
    for (const contract::ContainerRequest& c : request.containers) {
      auto spec = created.find(key + "/" + c.name);
      if (spec == created.end()) continue;  // Not created yet.
      GCUSHARE_ASSIGN_OR_RETURN(
          std::vector<uint32_t> cards,
          contract::CardsForContainer(*assignment, c.name));
      std::set<std::string> want;
      for (uint32_t card : cards)
        want.insert("/dev/gcu" + std::to_string(card));
      auto [devices, visible] = CardsOf(spec->second);
      if (devices != want || visible != contract::JoinCardList(cards)) {
        return InternalError("container " + c.name + " of " + key +
                             " got devices " + spec->second.dump() +
                             " but its pod's annotations say cards " +
                             contract::JoinCardList(cards));
      }
    }
  }
  return placement;
}

Status CheckLogFiles(const LocalCluster& cluster) {
  for (const char* name : {"gcushare-scheduler-extender",
                           "gcushare-device-plugin", "gcushare-nri-plugin"}) {
    const std::string path = cluster.log_dir() + "/" + name + ".log";
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || st.st_size == 0) {
      return NotFoundError("no log file " + path);
    }
  }
  return OkStatus();
}

}  // namespace gcushare::e2e
