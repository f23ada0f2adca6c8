#include "device-plugin/pod_source.h"

namespace gcushare::deviceplugin {

KubePodSource::KubePodSource(kube::KubeClient* client, const std::string& node,
                             base::Clock* clock, PodObserver observer)
    : client_(client),
      field_selector_("spec.nodeName=" + node),
      observer_(std::move(observer)) {
  kube::InformerOptions options;
  options.field_selector = field_selector_;
  options.clock = clock;
  informer_ = std::make_unique<kube::Informer>(
      client, kube::Resource::Pods(), "",
      static_cast<kube::InformerHandler*>(this), options);
}

KubePodSource::~KubePodSource() { Stop(); }

void KubePodSource::Start() { informer_->Start(); }

void KubePodSource::Stop() { informer_->Stop(); }

bool KubePodSource::WaitForSync(std::chrono::milliseconds timeout) {
  return informer_->WaitForSync(timeout);
}

std::vector<PodPtr> KubePodSource::Known() { return informer_->Snapshot(); }

StatusOr<std::vector<PodPtr>> KubePodSource::Fresh() {
  kube::ListOptions options;
  options.field_selector = field_selector_;
  StatusOr<kube::ObjectList> list =
      client_->List(kube::Resource::Pods(), "", options);
  if (!list.ok()) return list.status();
  std::vector<PodPtr> pods;
  pods.reserve(list->items.size());
  for (nlohmann::json& item : list->items) {
    pods.push_back(std::make_shared<const nlohmann::json>(std::move(item)));
  }
  return pods;
}

}  // namespace gcushare::deviceplugin
