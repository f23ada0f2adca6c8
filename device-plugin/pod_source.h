// Where Allocate looks for pods: the pods bound to this node.
//
// PodSource is the interface (Allocator's only view of the API server's
// pods); KubePodSource keeps an Informer on pods with the field selector
// spec.nodeName=<node> for the cached view and lists the same collection for
// a fresh one, used when the cache has no match yet (kubelet may see a pod
// before our watch does).
//
// Ownership: KubePodSource borrows the client and clock, which must outlive
// it. Thread-safety: every method may be called from any thread.
// Failure: Fresh() returns the client's Status (kUnavailable when the API
// server cannot be reached).
#ifndef GCUSHARE_DEVICE_PLUGIN_POD_SOURCE_H_
#define GCUSHARE_DEVICE_PLUGIN_POD_SOURCE_H_

#include <chrono>
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
  KubePodSource(kube::KubeClient* client, std::string node, base::Clock* clock);
  ~KubePodSource() override;

  void Start();
  void Stop();
  bool WaitForSync(std::chrono::milliseconds timeout);

  std::vector<PodPtr> Known() override;
  StatusOr<std::vector<PodPtr>> Fresh() override;

 private:
  void OnAdd(const nlohmann::json&) override {}
  void OnUpdate(const nlohmann::json&, const nlohmann::json&) override {}
  void OnDelete(const nlohmann::json&) override {}

  kube::KubeClient* const client_;
  const std::string field_selector_;
  std::unique_ptr<kube::Informer> informer_;
};

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_POD_SOURCE_H_
