#include "device-plugin/allocator.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <set>

#include "base/mutex.h"
#include "contract/names.h"
#include "device-plugin/device_ids.h"
#include "kube/json_fields.h"

namespace gcushare::deviceplugin {

Allocator::Allocator(AllocatorOptions options, PodSource* pods,
                     kube::KubeClient* client, InventoryFn inventory,
                     assignment::AssignedMarker* marker)
    : options_(std::move(options)),
      pods_(pods),
      client_(client),
      inventory_(std::move(inventory)),
      marker_(marker) {}

uint64_t Allocator::handed_out() const {
  base::MutexLock lock(mu_);
  return handed_out_count_;
}

StatusOr<PodMatch> Allocator::Locate(uint64_t units, bool allow_fresh) {
  LocateQuery query{options_.node, units};
  StatusOr<PodMatch> match = LocatePod(pods_->Known(), query, handed_out_);
  if (match.ok() || !allow_fresh) return match;
  StatusOr<std::vector<PodPtr>> fresh = pods_->Fresh();
  if (!fresh.ok()) {
    return UnavailableError(
        match.status().message() +
        "; listing this node's pods from the API server to look again "
        "failed: " +
        fresh.status().message());
  }
  // Forget pods that are gone: their UIDs never come back.
  std::set<std::string> live;
  for (const PodPtr& pod : *fresh) {
    live.insert(kube::StringAt(*pod, {"metadata", "uid"}));
  }
  for (auto it = handed_out_.begin(); it != handed_out_.end();) {
    it = live.count(it->first) ? std::next(it) : handed_out_.erase(it);
  }
  return LocatePod(*fresh, query, handed_out_);
}

StatusOr<v1beta1::ContainerAllocateResponse> Allocator::AllocateContainer(
    const v1beta1::ContainerAllocateRequest& request) {
  StatusOr<v1beta1::ContainerAllocateResponse> response = AllocateOne(request);
  if (options_.metrics != nullptr) {
    options_.metrics->Allocated(response.status());
  }
  return response;
}

StatusOr<v1beta1::ContainerAllocateResponse> Allocator::AllocateOne(
    const v1beta1::ContainerAllocateRequest& request) {
  const uint64_t units = static_cast<uint64_t>(request.devices_ids_size());
  if (units == 0) return InvalidArgumentError("Allocate asked for no device");
  for (const std::string& id : request.devices_ids()) {
    GCUSHARE_RETURN_IF_ERROR(ParseDeviceId(id).status());
  }
  base::MutexLock lock(mu_);
  StatusOr<PodMatch> match = Locate(units, /*allow_fresh=*/true);
  if (!match.ok()) {
    spdlog::warn("Allocate of {} unit(s): {}", units, match.status().message());
    return match.status();
  }
  StatusOr<v1beta1::ContainerAllocateResponse> response =
      BuildContainerResponse(*match, inventory_(), options_.unit,
                             options_.response);
  if (!response.ok()) {
    spdlog::warn("Allocate of {} unit(s): {}", units,
                 response.status().message());
    return response.status();
  }
  std::string marked = " (pod marked assigned)";
  if (match->last_container) {
    Status patched = assignment::AssignedMarker::Patch(
        client_, match->namespace_name, match->name, match->uid);
    if (!patched.ok()) {
      // kubelet never calls Allocate again for this admission: failing now
      // would fail the pod for good. The match stands; the mark is retried
      // in the background (and the NRI plugin marks the pod too).
      spdlog::warn(
          "pod {} matches this Allocate of {} unit(s) (container {}, card "
          "{}), but marking it {}=true failed: {}; handed out anyway, the "
          "mark is retried in the background",
          match->Key(), units, match->container.name,
          contract::JoinCardList(match->cards), contract::kPodAssigned,
          patched.message());
      if (marker_ != nullptr) {
        marker_->Mark(match->namespace_name, match->name, match->uid);
      }
      marked = " (marking the pod assigned is retried)";
    }
  }
  handed_out_[match->uid].insert(match->container.name);
  ++handed_out_count_;
  spdlog::info("Allocate of {} unit(s): pod {} container {} gets card {}{}",
               units, match->Key(), match->container.name,
               contract::JoinCardList(match->cards),
               match->last_container ? marked : "");
  return response;
}

v1beta1::ContainerPreferredAllocationResponse Allocator::PreferContainer(
    const v1beta1::ContainerPreferredAllocationRequest& request) {
  const size_t size = request.allocation_size() > 0
                          ? static_cast<size_t>(request.allocation_size())
                          : 0;
  std::set<uint32_t> cards;
  {
    base::MutexLock lock(mu_);
    StatusOr<PodMatch> match = Locate(size, /*allow_fresh=*/false);
    if (match.ok()) cards.insert(match->cards.begin(), match->cards.end());
  }
  v1beta1::ContainerPreferredAllocationResponse response;
  std::set<std::string> chosen;
  auto take = [&](const std::string& id) {
    if (chosen.size() >= size || !chosen.insert(id).second) return;
    response.add_deviceids(id);
  };
  for (const std::string& id : request.must_include_deviceids()) take(id);
  for (const std::string& id : request.available_deviceids()) {
    StatusOr<ParsedDeviceId> parsed = ParseDeviceId(id);
    if (parsed.ok() && cards.count(parsed->card) > 0) take(id);
  }
  for (const std::string& id : request.available_deviceids()) take(id);
  return response;
}

}  // namespace gcushare::deviceplugin
