#include "nri-plugin/pod_cache.h"

#include <algorithm>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "kube/json_fields.h"

namespace gcushare::nri {
namespace {

std::string UidOf(const nlohmann::json& pod) {
  return kube::StringAt(pod, {"metadata", "uid"});
}

}  // namespace

StatusOr<PodCache::PodPtr> PodCache::Find(const std::string& uid,
                                          const std::string& who,
                                          std::chrono::milliseconds cap) const {
  const std::chrono::milliseconds wait = std::min(wait_, cap);
  base::MutexLock lock(mu_);
  PodPtr found;
  added_.WaitFor(lock, wait, [&]() REQUIRES(mu_) {
    auto it = by_uid_.find(uid);
    if (it == by_uid_.end()) return false;
    found = it->second;
    return true;
  });
  if (found == nullptr) {
    return NotFoundError("pod " + who + " (uid " + uid +
                         ") is not in the plugin's watch of this node's pods "
                         "after " +
                         std::to_string(wait.count()) +
                         " ms; refusing to create the container without "
                         "knowing what it asked for (kubelet retries)");
  }
  return found;
}

void PodCache::OnAdd(const nlohmann::json& pod) {
  const std::string uid = UidOf(pod);
  if (uid.empty()) return;
  auto ptr = std::make_shared<const nlohmann::json>(pod);
  {
    base::MutexLock lock(mu_);
    by_uid_[uid] = std::move(ptr);
  }
  added_.NotifyAll();
}

void PodCache::OnUpdate(const nlohmann::json&, const nlohmann::json& new_pod) {
  OnAdd(new_pod);
}

void PodCache::OnDelete(const nlohmann::json& last_state) {
  base::MutexLock lock(mu_);
  by_uid_.erase(UidOf(last_state));
}

size_t PodCache::size() const {
  base::MutexLock lock(mu_);
  return by_uid_.size();
}

}  // namespace gcushare::nri
