#include "extender/unkept_pod_text.h"

#include <cstring>
#include <utility>

#include "contract/names.h"
#include "contract/pod_request.h"
#include "extender/pod_text.h"

namespace gcushare::extender {

struct UnkeptPodReader::Impl {
  PodTextReader reader;
};

UnkeptPodReader::UnkeptPodReader() : impl_(std::make_unique<Impl>()) {}
UnkeptPodReader::~UnkeptPodReader() = default;

std::optional<UnkeptPod> UnkeptPodReader::Read(std::string_view text) {
  // Most pods that ask for a GCU are known by this alone.
  constexpr std::string_view kOurs = contract::kOurPrefix;
  if (memmem(text.data(), text.size(), kOurs.data(), kOurs.size()) != nullptr) {
    return std::nullopt;
  }
  std::optional<PodText> pod = impl_->reader.Read(text);
  if (!pod.has_value() || !pod->uid.has_value()) return std::nullopt;
  // PodKeptForm() drops it: a readable request that wants no GCU.
  StatusOr<contract::PodRequest> request =
      contract::PodRequestOf(std::move(pod->init), std::move(pod->app));
  if (!request.ok() || request->Wants()) return std::nullopt;
  return UnkeptPod{*pod->uid, pod->node, pod->phase, pod->host};
}

}  // namespace gcushare::extender
