#include "extender/pod_text.h"

#include <simdjson.h>

#include <string>
#include <utility>

#include "contract/names.h"
#include "contract/quantity.h"
#include "extender/node_resources.h"

namespace gcushare::extender {
namespace {

namespace od = simdjson::ondemand;

// The keys an object level reads, each at most once (a key written twice
// is read by the usual path as its last value; a reader gives up).
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

// A list of objects as a pod's spec.containers: null (nothing), or an
// array whose elements each go to read(element); false for anything else.
template <typename Read>
bool ForEachElementOrNull(od::value value, Read&& read) {
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
        !read(element)) {
      return false;
    }
  }
  return true;
}

// One document at a time: the text copied into a padded buffer (simdjson
// reads past the end) and iterated; the parser's buffers are reused.
class DocumentReader {
 public:
  // The root value of `text`, or false when it does not start as JSON.
  // `document` must outlive the use of `root`.
  bool Start(std::string_view text, od::document& document, od::value& root) {
    buffer_.reserve(text.size() + simdjson::SIMDJSON_PADDING);
    buffer_.assign(text);
    const simdjson::padded_string_view padded(buffer_.data(), buffer_.size(),
                                              buffer_.capacity());
    return parser_.iterate(padded).get(document) == simdjson::SUCCESS &&
           document.get_value().get(root) == simdjson::SUCCESS;
  }
  // After the root was read: true when nothing follows it.
  static bool AtEnd(od::document& document) {
    const char* rest = nullptr;
    return document.current_location().get(rest) == simdjson::OUT_OF_BOUNDS;
  }

 private:
  od::parser parser_;
  std::string buffer_;
};

// A container's resources.requests or .limits: the host figures as
// NodeResources reads them, and the GCU amounts as
// contract::ComputePodRequest() does.
struct ResourceList {
  HostFigures host;
  std::optional<uint64_t> memory_units;  // enflame.com/gcu-memory
  std::optional<uint64_t> cards;         // enflame.com/gcu-count
};

// What the reader takes of one container.
struct ContainerFields {
  std::string_view name;
  std::string_view restart_policy;
  ResourceList requests;
  ResourceList limits;
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
    } else if (key.starts_with(contract::kOurPrefix)) {
      return false;  // Ours, but not a resource a reader knows.
    }
    return true;
  });
}

// Reads one container (an object: name, restartPolicy and resources read,
// the rest skipped). False for what the usual path would read otherwise:
// another type, a field written twice, a quantity it refuses, or a key
// under enflame.com/ in a resource list other than the two GCU resources.
bool ReadContainerFields(od::value value, ContainerFields& out) {
  Once once;
  return ForEachField(value, [&](std::string_view key, od::value field) {
    if (key == "resources") {
      if (!once.First(0)) return false;
      Once lists;
      return ForEachField(field, [&](std::string_view list, od::value v) {
        if (list == "requests") {
          return lists.First(0) && ReadList(v, out.requests);
        }
        if (list == "limits") return lists.First(1) && ReadList(v, out.limits);
        return true;
      });
    }
    if (key == "restartPolicy") {
      return once.First(1) && ReadString(field, out.restart_policy);
    }
    if (key == "name") return once.First(2) && ReadString(field, out.name);
    return true;
  });
}

// One container: its GCU request (limits first, then requests, as
// ComputePodRequest()) into `out`, its host figures into `sum`.
bool ReadContainer(od::value value, bool init, PodHostSum& sum,
                   std::vector<contract::ContainerRequest>& out) {
  ContainerFields c;
  if (!ReadContainerFields(value, c)) return false;
  const bool sidecar = init && c.restart_policy == "Always";
  sum.AddContainer(c.requests.host, c.limits.host, init, sidecar);
  contract::ContainerRequest r;
  r.init = init;
  r.sidecar = sidecar;
  r.memory_units =
      c.limits.memory_units.value_or(c.requests.memory_units.value_or(0));
  r.cards = c.limits.cards.value_or(c.requests.cards.value_or(0));
  if (r.Wants()) r.name = std::string(c.name);
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

std::optional<std::string_view> PodText::Annotation(
    std::string_view key) const {
  const auto& keys = contract::kPodAssignmentKeys;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == key) return annotations[i];
  }
  return std::nullopt;
}

struct PodTextReader::Impl {
  DocumentReader reader;
};

PodTextReader::PodTextReader() : impl_(std::make_unique<Impl>()) {}
PodTextReader::~PodTextReader() = default;

std::optional<PodText> PodTextReader::Read(std::string_view text) {
  od::document document;
  od::value root;
  if (!impl_->reader.Start(text, document, root)) return std::nullopt;
  PodText pod;
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
      const auto& keys = contract::kPodAssignmentKeys;
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
