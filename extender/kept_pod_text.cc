#include "extender/kept_pod_text.h"

#include <string>
#include <utility>

#include "contract/names.h"
#include "contract/quantity.h"
#include "extender/node_resources.h"
#include "extender/pod_text_fields.h"

namespace gcushare::extender {
namespace {

namespace od = simdjson::ondemand;
using pod_text::DocumentReader;
using pod_text::ForEachElementOrNull;
using pod_text::ForEachField;
using pod_text::kOurPrefix;
using pod_text::Once;
using pod_text::ReadString;

// A container's resources.requests or .limits: the host figures as
// NodeResources reads them, and the GCU amounts as ComputePodRequest() does.
struct ResourceList {
  HostFigures host;
  std::optional<uint64_t> memory_units;  // enflame.com/gcu-memory
  std::optional<uint64_t> cards;         // enflame.com/gcu-count
};

bool ReadQuantity(od::value value, std::optional<uint64_t>& out) {
  std::string_view text;
  if (!ReadString(value, text)) return false;
  StatusOr<uint64_t> amount = contract::ParseIntegerQuantity(text);
  if (!amount.ok()) return false;
  out = *amount;
  return true;
}

bool ReadList(od::value value, ResourceList& out) {
  Once once;
  return ForEachField(value, [&](std::string_view key, od::value field) {
    std::string_view text;
    if (key == "cpu") {
      if (!once.First(0) || !ReadString(field, text)) return false;
      StatusOr<int64_t> milli = ParseHostCpuMilli(text);
      if (!milli.ok()) return false;
      out.host.cpu_milli = *milli;
    } else if (key == "memory") {
      if (!once.First(1) || !ReadString(field, text)) return false;
      StatusOr<int64_t> bytes = ParseHostBytes(text);
      if (!bytes.ok()) return false;
      out.host.memory = *bytes;
    } else if (key == contract::kResourceMemory) {
      return once.First(2) && ReadQuantity(field, out.memory_units);
    } else if (key == contract::kResourceCount) {
      return once.First(3) && ReadQuantity(field, out.cards);
    } else if (key.substr(0, kOurPrefix.size()) == kOurPrefix) {
      return false;  // Ours, but not a resource this reader knows.
    }
    return true;
  });
}

// One container: its GCU request (limits first, then requests, as
// ComputePodRequest()) into `out`, its host figures into `sum`.
bool ReadContainer(od::value value, bool init, PodHostSum& sum,
                   std::vector<contract::ContainerRequest>& out) {
  Once once;
  ResourceList requests;
  ResourceList limits;
  std::string_view name;
  std::string_view restart_policy;
  const bool read =
      ForEachField(value, [&](std::string_view key, od::value field) {
        if (key == "resources") {
          if (!once.First(0)) return false;
          Once lists;
          return ForEachField(field, [&](std::string_view list, od::value v) {
            if (list == "requests") {
              return lists.First(0) && ReadList(v, requests);
            }
            if (list == "limits") return lists.First(1) && ReadList(v, limits);
            return true;
          });
        }
        if (key == "restartPolicy") {
          return once.First(1) && ReadString(field, restart_policy);
        }
        if (key == "name") return once.First(2) && ReadString(field, name);
        return true;
      });
  if (!read) return false;
  const bool sidecar = init && restart_policy == "Always";
  sum.AddContainer(requests.host, limits.host, init, sidecar);
  contract::ContainerRequest r;
  r.init = init;
  r.sidecar = sidecar;
  r.memory_units =
      limits.memory_units.value_or(requests.memory_units.value_or(0));
  r.cards = limits.cards.value_or(requests.cards.value_or(0));
  if (r.Wants()) r.name = std::string(name);
  out.push_back(std::move(r));
  return true;
}

bool ReadContainers(od::value value, bool init, PodHostSum& sum,
                    std::vector<contract::ContainerRequest>& out) {
  return ForEachElementOrNull(value, [&](od::value element) {
    return ReadContainer(element, init, sum, out);
  });
}

bool ReadOptionalString(od::value value, std::optional<std::string_view>& out) {
  std::string_view text;
  if (!ReadString(value, text)) return false;
  out = text;
  return true;
}

}  // namespace

const std::array<std::string_view, 6>& KeptPod::AssignmentKeys() {
  static constexpr std::array<std::string_view, 6> kKeys = {
      contract::kPodDeviceId,      contract::kPodDeviceMemory,
      contract::kPodMemoryRequest, contract::kPodAssignTime,
      contract::kPodAssigned,      contract::kPodContainerDevices};
  return kKeys;
}

std::optional<std::string_view> KeptPod::Annotation(
    std::string_view key) const {
  const auto& keys = AssignmentKeys();
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == key) return annotations[i];
  }
  return std::nullopt;
}

struct KeptPodReader::Impl {
  DocumentReader reader;
};

KeptPodReader::KeptPodReader() : impl_(std::make_unique<Impl>()) {}
KeptPodReader::~KeptPodReader() = default;

std::optional<KeptPod> KeptPodReader::Read(std::string_view text) {
  od::document document;
  od::value root;
  if (!impl_->reader.Start(text, document, root)) return std::nullopt;
  KeptPod pod;
  PodHostSum sum;
  Once once;
  bool has_spec = false;
  const auto read_metadata = [&](od::value metadata) {
    Once meta;
    return ForEachField(metadata, [&](std::string_view key, od::value value) {
      if (key == "name") {
        return meta.First(0) && ReadOptionalString(value, pod.name);
      }
      if (key == "namespace") {
        return meta.First(1) && ReadOptionalString(value, pod.namespace_name);
      }
      if (key == "uid") {
        return meta.First(2) && ReadOptionalString(value, pod.uid);
      }
      if (key == "resourceVersion") {
        return meta.First(3) && ReadOptionalString(value, pod.resource_version);
      }
      if (key == "creationTimestamp") {
        return meta.First(4) && ReadString(value, pod.creation_timestamp);
      }
      if (key != "annotations") return true;
      if (!meta.First(5)) return false;
      Once seen;
      const auto& keys = KeptPod::AssignmentKeys();
      return ForEachField(value, [&](std::string_view name, od::value v) {
        for (size_t i = 0; i < keys.size(); ++i) {
          if (keys[i] != name) continue;
          return seen.First(static_cast<int>(i)) &&
                 ReadOptionalString(v, pod.annotations[i]);
        }
        return true;
      });
    });
  };
  const bool read = ForEachField(root, [&](std::string_view key,
                                           od::value field) {
    if (key == "metadata") return once.First(0) && read_metadata(field);
    if (key == "spec") {
      if (!once.First(1)) return false;
      has_spec = true;
      Once spec;
      return ForEachField(field, [&](std::string_view name, od::value value) {
        if (name == "nodeName") {
          return spec.First(0) && ReadString(value, pod.node);
        }
        if (name == "containers") {
          return spec.First(1) && ReadContainers(value, false, sum, pod.app);
        }
        if (name == "initContainers") {
          return spec.First(2) && ReadContainers(value, true, sum, pod.init);
        }
        return true;
      });
    }
    if (key == "status") {
      if (!once.First(2)) return false;
      Once status;
      return ForEachField(field, [&](std::string_view name, od::value value) {
        if (name != "phase") return true;
        return status.First(0) && ReadString(value, pod.phase);
      });
    }
    return true;
  });
  if (!read || !has_spec || !DocumentReader::AtEnd(document)) {
    return std::nullopt;
  }
  pod.host = sum.Total();
  return pod;
}

}  // namespace gcushare::extender
