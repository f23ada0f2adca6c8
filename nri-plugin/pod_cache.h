// PodCache: the pods bound to this node, kept by a watch (kube::Informer
// with fieldSelector spec.nodeName=<node>), so that CreateContainer never
// waits on the API server: containerd gives a plugin 2 s per request and on
// a timeout creates the container UNADJUSTED (without its card, or with a
// wrong one).
//
// Find() returns the cached pod at once; a pod not seen yet (its watch
// event still in flight) is waited for, at most min(`wait`, the caller's
// cap: half the runtime's request deadline), then NotFound: the caller
// fails that container and kubelet retries it.
//
// Ownership: owned by main; the informer borrows it as its handler.
// Thread-safety: Find() from any thread; the handler methods from the
// informer's thread.
#ifndef GCUSHARE_NRI_PLUGIN_POD_CACHE_H_
#define GCUSHARE_NRI_PLUGIN_POD_CACHE_H_

#include <chrono>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "kube/informer.h"
#include "nri-plugin/pod_lookup.h"
#include "status/status.h"

namespace gcushare::nri {

class PodCache : public PodLookup, public kube::InformerHandler {
 public:
  explicit PodCache(std::chrono::milliseconds wait) : wait_(wait) {}

  // The pod with `uid` (`who` names it in the error): at once when cached,
  // else after waiting up to min(the configured wait, `cap`) for the watch
  // to bring it.
  StatusOr<PodPtr> Find(const std::string& uid, const std::string& who,
                        std::chrono::milliseconds cap) const override;

  void OnAdd(const nlohmann::json& pod) override;
  void OnUpdate(const nlohmann::json& old_pod,
                const nlohmann::json& new_pod) override;
  void OnDelete(const nlohmann::json& last_state) override;

  size_t size() const;

 private:
  const std::chrono::milliseconds wait_;
  mutable base::Mutex mu_;
  mutable base::CondVar added_;
  std::map<std::string, PodPtr> by_uid_ GUARDED_BY(mu_);
};

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_POD_CACHE_H_
