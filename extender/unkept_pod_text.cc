#include "extender/unkept_pod_text.h"

#include <simdjson.h>

#include <cstring>
#include <string>

#include "extender/node_resources.h"

namespace gcushare::extender {
namespace {

namespace od = simdjson::ondemand;

constexpr std::string_view kOurPrefix = "enflame.com/";

// The keys an object level reads, each at most once (a key written twice
// is read by the usual path as its last value; this reader gives up).
class Once {
 public:
  bool First(int key) {
    const unsigned bit = 1u << key;
    if ((seen_ & bit) != 0) return false;
    seen_ |= bit;
    return true;
  }

 private:
  unsigned seen_ = 0;
};

bool ReadString(od::value value, std::string_view& out) {
  od::json_type type;
  if (value.type().get(type) != simdjson::SUCCESS ||
      type != od::json_type::string) {
    return false;
  }
  return value.get_string().get(out) == simdjson::SUCCESS;
}

// Iterates the object `value`, calling read(key, field value) for each
// field; false when it is not an object, is malformed, or read() is.
template <typename Read>
bool ForEachField(od::value value, Read&& read) {
  od::object object;
  if (value.get_object().get(object) != simdjson::SUCCESS) return false;
  for (auto field_result : object) {
    od::field field;
    std::string_view key;
    if (std::move(field_result).get(field) != simdjson::SUCCESS ||
        field.unescaped_key().get(key) != simdjson::SUCCESS) {
      return false;
    }
    if (!read(key, field.value())) return false;
  }
  return true;
}

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
  od::json_type type;
  if (value.type().get(type) != simdjson::SUCCESS) return false;
  if (type == od::json_type::null) {
    bool is_null = false;
    return value.is_null().get(is_null) == simdjson::SUCCESS && is_null;
  }
  od::array array;
  if (value.get_array().get(array) != simdjson::SUCCESS) return false;
  for (auto element_result : array) {
    od::value element;
    if (std::move(element_result).get(element) != simdjson::SUCCESS ||
        !ReadContainer(element, init, sum)) {
      return false;
    }
  }
  return true;
}

}  // namespace

struct UnkeptPodReader::Impl {
  od::parser parser;
  std::string buffer;  // The text, padded as simdjson reads past the end.
};

UnkeptPodReader::UnkeptPodReader() : impl_(std::make_unique<Impl>()) {}
UnkeptPodReader::~UnkeptPodReader() = default;

std::optional<UnkeptPod> UnkeptPodReader::Read(std::string_view text) {
  // Most pods that ask for a GCU are known by this alone.
  if (memmem(text.data(), text.size(), kOurPrefix.data(), kOurPrefix.size()) !=
      nullptr) {
    return std::nullopt;
  }
  std::string& buffer = impl_->buffer;
  buffer.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  buffer.assign(text);
  const simdjson::padded_string_view padded(buffer.data(), buffer.size(),
                                            buffer.capacity());
  od::document document;
  od::value root;
  if (impl_->parser.iterate(padded).get(document) != simdjson::SUCCESS ||
      document.get_value().get(root) != simdjson::SUCCESS) {
    return std::nullopt;
  }
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
  const char* rest = nullptr;
  if (!read || !has_uid || !has_spec ||
      document.current_location().get(rest) != simdjson::OUT_OF_BOUNDS) {
    return std::nullopt;
  }
  pod.request = sum.Total();
  return pod;
}

}  // namespace gcushare::extender
