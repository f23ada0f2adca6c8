// PodLookup: the pod object of a container's sandbox, by UID, for
// CreateContainer. PodCache (pod_cache.h) answers from a watch; tests put a
// counting or scripted lookup in its place.
//
// Thread-safety: Find() may be called from any thread. Failure: NotFound
// when the pod is not known within the wait.
#ifndef GCUSHARE_NRI_PLUGIN_POD_LOOKUP_H_
#define GCUSHARE_NRI_PLUGIN_POD_LOOKUP_H_

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "status/status.h"

namespace gcushare::nri {

class PodLookup {
 public:
  using PodPtr = std::shared_ptr<const nlohmann::json>;

  virtual ~PodLookup() = default;

  // The pod with `uid` (`who` names it in the error), waiting at most `cap`
  // for one not known yet.
  virtual StatusOr<PodPtr> Find(const std::string& uid, const std::string& who,
                                std::chrono::milliseconds cap) const = 0;
};

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_POD_LOOKUP_H_
