// Where Allocate looks for pods: the pods bound to this node.
//
// PodSource is the interface (Allocator's only view of the API server's
// pods); KubePodSource keeps an Informer on pods with the field selector
// spec.nodeName=<node> for the cached view and lists the same collection for
// a fresh one, used when the cache has no match yet (kubelet may see a pod
// before our watch does). An optional observer sees every pod the informer
// lists or watches added or modified (the plugin finishes owed assigned
// marks from it: owed_mark.h).
//
// Ownership: KubePodSource borrows the client and clock, which must outlive
// it. Thread-safety: every method may be called from any thread; the
// observer runs on the informer's thread, one pod at a time, and must not
// block on the API server.
// Failure: Fresh() returns the client's Status (kUnavailable when the API
// server cannot be reached).
#ifndef GCUSHARE_DEVICE_PLUGIN_POD_SOURCE_H_
#define GCUSHARE_DEVICE_PLUGIN_POD_SOURCE_H_

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/clock.h"
#include "device-plugin/pod_locator.h"
#include "kube/informer.h"
#include "kube/kube_client.h"
#include "status/status.h"

namespace gcushare::deviceplugin {

class PodSource {
 public:
  virtual ~PodSource() = default;
  // The cached pods of this node (may lag the API server).
  virtual std::vector<PodPtr> Known() = 0;
  // The pods of this node as the API server has them now.
  virtual StatusOr<std::vector<PodPtr>> Fresh() = 0;
};

class KubePodSource : public PodSource, private kube::InformerHandler {
 public:
  // Called with each pod listed, added or modified (its new state).
  using PodObserver = std::function<void(const nlohmann::json& pod)>;

  // `observer` may be empty.
  KubePodSource(kube::KubeClient* client, const std::string& node,
                base::Clock* clock, PodObserver observer = nullptr);
  ~KubePodSource() override;

  void Start();
  void Stop();
  bool WaitForSync(std::chrono::milliseconds timeout);

  std::vector<PodPtr> Known() override;
  StatusOr<std::vector<PodPtr>> Fresh() override;

 private:
  void OnAdd(const nlohmann::json& pod) override {
    if (observer_) observer_(pod);
  }
  void OnUpdate(const nlohmann::json&, const nlohmann::json& pod) override {
    if (observer_) observer_(pod);
  }
  void OnDelete(const nlohmann::json&) override {}

  kube::KubeClient* const client_;
  const std::string field_selector_;
  const PodObserver observer_;
  std::unique_ptr<kube::Informer> informer_;
};

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_POD_SOURCE_H_
