#include "dra-driver/slice_diff.h"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <string_view>

#include "dra-driver/memory_quantity.h"

namespace gcushare::dra {
namespace {

const nlohmann::json& Field(const nlohmann::json& object,
                            std::string_view key) {
  static const nlohmann::json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

const nlohmann::json& Devices(const nlohmann::json& slice) {
  return Field(Field(slice, "spec"), "devices");
}

bool SameQuantityJson(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_string() && b.is_string()) {
    return SameQuantity(a.get<std::string>(), b.get<std::string>());
  }
  return a == b;
}

// A request policy with its quantities compared by amount.
bool SamePolicy(const nlohmann::json& a, const nlohmann::json& b) {
  if (!a.is_object() || !b.is_object()) return a == b;
  if (a.size() != b.size()) return false;
  for (auto it = a.begin(); it != a.end(); ++it) {
    const nlohmann::json& other = Field(b, it.key());
    if (it.key() == "validRange") {
      const nlohmann::json& range = it.value();
      if (!range.is_object() || !other.is_object() ||
          range.size() != other.size()) {
        if (range != other) return false;
        continue;
      }
      for (auto r = range.begin(); r != range.end(); ++r) {
        if (!SameQuantityJson(r.value(), Field(other, r.key()))) return false;
      }
    } else if (it.key() == "validValues") {
      const nlohmann::json& values = it.value();
      if (!values.is_array() || !other.is_array() ||
          values.size() != other.size()) {
        if (values != other) return false;
        continue;
      }
      for (size_t i = 0; i < values.size(); ++i) {
        if (!SameQuantityJson(values[i], other[i])) return false;
      }
    } else if (!SameQuantityJson(it.value(), other)) {
      return false;
    }
  }
  return true;
}

bool SameCapacity(const nlohmann::json& a, const nlohmann::json& b) {
  if (!a.is_object() || !b.is_object()) return a == b;
  if (a.size() != b.size()) return false;
  for (auto it = a.begin(); it != a.end(); ++it) {
    const nlohmann::json& mine = it.value();
    const nlohmann::json& theirs = Field(b, it.key());
    if (!mine.is_object() || !theirs.is_object() ||
        mine.size() != theirs.size()) {
      return false;
    }
    if (!SameQuantityJson(Field(mine, "value"), Field(theirs, "value")) ||
        !SamePolicy(Field(mine, "requestPolicy"),
                    Field(theirs, "requestPolicy"))) {
      return false;
    }
  }
  return true;
}

// Taints, ignoring a timeAdded the server set on its own.
bool SameTaints(const nlohmann::json& desired, const nlohmann::json& stored) {
  if (!desired.is_array() || !stored.is_array()) {
    const bool desired_empty = desired.is_null() || desired.empty();
    const bool stored_empty = stored.is_null() || stored.empty();
    return desired_empty && stored_empty;
  }
  if (desired.size() != stored.size()) return false;
  for (size_t i = 0; i < desired.size(); ++i) {
    nlohmann::json theirs = stored[i];
    if (theirs.is_object() && Field(desired[i], "timeAdded").is_null()) {
      theirs.erase("timeAdded");
    }
    if (desired[i] != theirs) return false;
  }
  return true;
}

// A field the server holds that the driver did not send counts only when
// it says something: the zero value of a field (false, "", [], {}) is what
// the typed upstream comparison would not see either.
bool IsZero(const nlohmann::json& value) {
  return value.is_null() || (value.is_boolean() && !value.get<bool>()) ||
         (value.is_string() && value.get<std::string>().empty()) ||
         (value.is_number() && value == 0) ||
         ((value.is_array() || value.is_object()) && value.empty());
}

// Every field of `desired` equal in `stored` (except those `skip`ped), and
// no other non-zero field in `stored`.
bool SameFields(const nlohmann::json& desired, const nlohmann::json& stored,
                std::initializer_list<std::string_view> skip) {
  auto skipped = [&](const std::string& key) {
    return std::find(skip.begin(), skip.end(), key) != skip.end();
  };
  for (auto it = desired.begin(); it != desired.end(); ++it) {
    if (!skipped(it.key()) && Field(stored, it.key()) != it.value()) {
      return false;
    }
  }
  for (auto it = stored.begin(); it != stored.end(); ++it) {
    if (!skipped(it.key()) && !desired.contains(it.key()) &&
        !IsZero(it.value())) {
      return false;
    }
  }
  return true;
}

bool SameDevice(const nlohmann::json& desired, const nlohmann::json& stored) {
  if (!desired.is_object() || !stored.is_object()) return desired == stored;
  return SameFields(desired, stored, {"capacity", "taints"}) &&
         SameCapacity(Field(desired, "capacity"), Field(stored, "capacity")) &&
         SameTaints(Field(desired, "taints"), Field(stored, "taints"));
}

}  // namespace

std::string DroppedFields::DisabledFeatures() const {
  std::string out;
  if (consumable_capacity) out += "DRAConsumableCapacity";
  if (taints) out += std::string(out.empty() ? "" : " ") + "DRADeviceTaints";
  return out;
}

bool SameSliceContent(const nlohmann::json& desired,
                      const nlohmann::json& stored) {
  const nlohmann::json& want = Field(desired, "spec");
  const nlohmann::json& have = Field(stored, "spec");
  if (!want.is_object() || !have.is_object() ||
      !SameFields(want, have, {"devices"})) {
    return false;
  }
  const nlohmann::json& want_devices = Field(want, "devices");
  const nlohmann::json& have_devices = Field(have, "devices");
  const size_t want_size = want_devices.is_array() ? want_devices.size() : 0;
  const size_t have_size = have_devices.is_array() ? have_devices.size() : 0;
  if (want_size != have_size) return false;
  for (size_t i = 0; i < want_size; ++i) {
    if (!SameDevice(want_devices[i], have_devices[i])) return false;
  }
  return true;
}

DroppedFields FindDroppedFields(const nlohmann::json& desired,
                                const nlohmann::json& stored) {
  DroppedFields dropped;
  std::map<std::string, const nlohmann::json*> stored_devices;
  const nlohmann::json& have = Devices(stored);
  if (have.is_array()) {
    for (const nlohmann::json& device : have) {
      const nlohmann::json& name = Field(device, "name");
      if (name.is_string()) stored_devices[name.get<std::string>()] = &device;
    }
  }
  const nlohmann::json& want = Devices(desired);
  if (!want.is_array()) return dropped;
  for (const nlohmann::json& device : want) {
    const nlohmann::json& name = Field(device, "name");
    if (!name.is_string()) continue;
    auto it = stored_devices.find(name.get<std::string>());
    if (it == stored_devices.end()) continue;
    const nlohmann::json& theirs = *it->second;
    if (!Field(device, "allowMultipleAllocations").is_null() &&
        Field(theirs, "allowMultipleAllocations").is_null()) {
      dropped.consumable_capacity = true;
    }
    const nlohmann::json& capacity = Field(device, "capacity");
    if (capacity.is_object()) {
      for (auto c = capacity.begin(); c != capacity.end(); ++c) {
        if (!Field(c.value(), "requestPolicy").is_null() &&
            Field(Field(Field(theirs, "capacity"), c.key()), "requestPolicy")
                .is_null()) {
          dropped.consumable_capacity = true;
        }
      }
    }
    const nlohmann::json& taints = Field(device, "taints");
    const nlohmann::json& their_taints = Field(theirs, "taints");
    const size_t want_taints = taints.is_array() ? taints.size() : 0;
    const size_t have_taints =
        their_taints.is_array() ? their_taints.size() : 0;
    if (want_taints > have_taints) dropped.taints = true;
  }
  return dropped;
}

}  // namespace gcushare::dra
