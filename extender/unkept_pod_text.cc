#include "extender/unkept_pod_text.h"

#include <simdjson.h>

#include <cstring>
#include <string>

#include "extender/node_resources.h"
#include "extender/pod_text_fields.h"

namespace gcushare::extender {
namespace {

using pod_text::DocumentReader;
using pod_text::ForEachElementOrNull;
using pod_text::ForEachField;
using pod_text::kOurPrefix;
namespace od = simdjson::ondemand;
using pod_text::Once;
using pod_text::ReadString;

// A container's resources.requests or .limits, as NodeResources reads it.
bool ReadList(od::value value, HostFigures& out) {
  Once once;
  return ForEachField(value, [&](std::string_view key, od::value field) {
    if (key.substr(0, kOurPrefix.size()) == kOurPrefix) return false;
    std::string_view text;
    if (key == "cpu") {
      if (!once.First(0) || !ReadString(field, text)) return false;
      StatusOr<int64_t> milli = ParseHostCpuMilli(text);
      if (!milli.ok()) return false;
      out.cpu_milli = *milli;
    } else if (key == "memory") {
      if (!once.First(1) || !ReadString(field, text)) return false;
      StatusOr<int64_t> bytes = ParseHostBytes(text);
      if (!bytes.ok()) return false;
      out.memory = *bytes;
    }
    return true;
  });
}

bool ReadContainer(od::value value, bool init, PodHostSum& sum) {
  Once once;
  HostFigures requests;
  HostFigures limits;
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
        return true;
      });
  if (!read) return false;
  sum.AddContainer(requests, limits, init, init && restart_policy == "Always");
  return true;
}

// spec.containers or spec.initContainers: null, or an array of objects.
bool ReadContainers(od::value value, bool init, PodHostSum& sum) {
  return ForEachElementOrNull(value, [&](od::value element) {
    return ReadContainer(element, init, sum);
  });
}

}  // namespace

struct UnkeptPodReader::Impl {
  DocumentReader reader;
};

UnkeptPodReader::UnkeptPodReader() : impl_(std::make_unique<Impl>()) {}
UnkeptPodReader::~UnkeptPodReader() = default;

std::optional<UnkeptPod> UnkeptPodReader::Read(std::string_view text) {
  // Most pods that ask for a GCU are known by this alone.
  if (memmem(text.data(), text.size(), kOurPrefix.data(), kOurPrefix.size()) !=
      nullptr) {
    return std::nullopt;
  }
  od::document document;
  od::value root;
  if (!impl_->reader.Start(text, document, root)) return std::nullopt;
  UnkeptPod pod;
  PodHostSum sum;
  Once once;
  bool has_uid = false;
  bool has_spec = false;
  const bool read = ForEachField(root, [&](std::string_view key,
                                           od::value field) {
    if (key == "metadata") {
      if (!once.First(0)) return false;
      Once meta;
      return ForEachField(field, [&](std::string_view name, od::value value) {
        if (name != "uid") return true;
        has_uid = true;
        return meta.First(0) && ReadString(value, pod.uid);
      });
    }
    if (key == "spec") {
      if (!once.First(1)) return false;
      has_spec = true;
      Once spec;
      return ForEachField(field, [&](std::string_view name, od::value value) {
        if (name == "nodeName") {
          return spec.First(0) && ReadString(value, pod.node);
        }
        if (name == "containers") {
          return spec.First(1) && ReadContainers(value, false, sum);
        }
        if (name == "initContainers") {
          return spec.First(2) && ReadContainers(value, true, sum);
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
  if (!read || !has_uid || !has_spec || !DocumentReader::AtEnd(document)) {
    return std::nullopt;
  }
  pod.request = sum.Total();
  return pod;
}

}  // namespace gcushare::extender
