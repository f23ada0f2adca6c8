#include "tests/peers/dra_scheduler/capacity_policy.h"

#include <string>

namespace gcushare::dra_scheduler {
namespace {

using Nanos = Quantity::Nanos;
constexpr Nanos kNanosPerMilli = 1000000;

StatusOr<Quantity> ParseField(const nlohmann::json& object, const char* key,
                              const std::string& where) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) {
    return InvalidArgumentError(where + "." + key +
                                ": Required value: a quantity string");
  }
  auto parsed = Quantity::Parse(it->get<std::string>());
  if (!parsed.ok()) {
    return InvalidArgumentError(where + "." + key + ": " +
                                parsed.status().message());
  }
  return *parsed;
}

// useMilli: some bound has a fraction, all are exact in milli, step >= 1m.
bool UseMilli(const CapacityRange& range) {
  bool fractional = false;
  for (const std::optional<Quantity>& q :
       {std::optional<Quantity>(range.min), range.max, range.step}) {
    if (!q.has_value()) continue;
    if (!q->IsWholeMilli()) return false;
    if (q->CeilValue() * 1000 != q->CeilMilliValue()) fractional = true;
  }
  if (range.step.has_value() && range.step->CeilMilliValue() < 1) return false;
  return fractional;
}

Quantity RoundUpRange(const Quantity& requested, const CapacityRange& range) {
  if (requested < range.min) return range.min;
  if (!range.step.has_value()) return requested;
  const QuantityFormat format = range.step->format();
  if (UseMilli(range)) {
    const Nanos requested_milli = requested.CeilMilliValue();
    const Nanos step = range.step->CeilMilliValue();
    const Nanos min = range.min.CeilMilliValue();
    const Nanos added = requested_milli - min;
    Nanos n = added / step;
    if (added % step != 0) ++n;
    return Quantity::FromNanos((min + step * n) * kNanosPerMilli, format);
  }
  const Nanos requested_value = requested.CeilValue();
  const Nanos step = range.step->CeilValue();
  const Nanos min = range.min.CeilValue();
  if (step <= 0) return requested;
  const Nanos added = requested_value - min;
  Nanos n = added / step;
  if (added % step != 0) ++n;
  return Quantity::FromNanos((min + step * n) * kNanosPerMilli * 1000, format);
}

}  // namespace

StatusOr<DeviceCapacity> ParseDeviceCapacity(const nlohmann::json& capacity) {
  if (!capacity.is_object()) {
    return InvalidArgumentError("capacity: must be an object");
  }
  DeviceCapacity out;
  GCUSHARE_ASSIGN_OR_RETURN(out.value,
                            ParseField(capacity, "value", "capacity"));
  auto policy_it = capacity.find("requestPolicy");
  if (policy_it == capacity.end() || policy_it->is_null()) return out;
  const nlohmann::json& policy = *policy_it;
  if (!policy.is_object()) {
    return InvalidArgumentError("capacity.requestPolicy: must be an object");
  }
  RequestPolicy parsed;
  if (policy.contains("default")) {
    GCUSHARE_ASSIGN_OR_RETURN(
        parsed.default_value,
        ParseField(policy, "default", "capacity.requestPolicy"));
  }
  auto values = policy.find("validValues");
  if (values != policy.end() && values->is_array()) {
    for (const nlohmann::json& value : *values) {
      if (!value.is_string()) {
        return InvalidArgumentError(
            "capacity.requestPolicy.validValues: must be quantity strings");
      }
      auto q = Quantity::Parse(value.get<std::string>());
      if (!q.ok()) {
        return InvalidArgumentError("capacity.requestPolicy.validValues: " +
                                    q.status().message());
      }
      parsed.valid_values.push_back(*q);
    }
  }
  auto range = policy.find("validRange");
  if (range != policy.end() && range->is_object()) {
    const std::string where = "capacity.requestPolicy.validRange";
    CapacityRange r;
    GCUSHARE_ASSIGN_OR_RETURN(r.min, ParseField(*range, "min", where));
    if (range->contains("max")) {
      GCUSHARE_ASSIGN_OR_RETURN(r.max, ParseField(*range, "max", where));
    }
    if (range->contains("step")) {
      GCUSHARE_ASSIGN_OR_RETURN(r.step, ParseField(*range, "step", where));
      if (r.step->nanos() <= 0) {
        return InvalidArgumentError(where + ".step: must be positive");
      }
    }
    parsed.valid_range = r;
  }
  out.policy = parsed;
  return out;
}

Quantity ConsumedCapacity(const Quantity* requested,
                          const DeviceCapacity& capacity) {
  if (requested == nullptr) {
    if (capacity.policy.has_value() &&
        capacity.policy->default_value.has_value()) {
      return *capacity.policy->default_value;
    }
    return capacity.value;
  }
  if (!capacity.policy.has_value()) return *requested;
  const RequestPolicy& policy = *capacity.policy;
  if (policy.valid_range.has_value()) {
    return RoundUpRange(*requested, *policy.valid_range);
  }
  if (!policy.valid_values.empty()) {
    for (const Quantity& value : policy.valid_values) {
      if (*requested <= value) return value;
    }
  }
  return *requested;
}

bool ViolatesPolicy(const Quantity& consumed, const DeviceCapacity& capacity) {
  if (!capacity.policy.has_value()) return false;
  const RequestPolicy& policy = *capacity.policy;
  if (policy.default_value.has_value() && consumed == *policy.default_value) {
    return false;
  }
  if (policy.valid_range.has_value()) {
    const CapacityRange& range = *policy.valid_range;
    if (range.max.has_value() && consumed > *range.max) return true;
    if (range.step.has_value()) {
      Nanos requested = 0, step = 0, min = 0;
      if (UseMilli(range)) {
        if (!consumed.IsWholeMilli()) return true;
        requested = consumed.CeilMilliValue();
        step = range.step->CeilMilliValue();
        min = range.min.CeilMilliValue();
      } else {
        requested = consumed.CeilValue();
        step = range.step->CeilValue();
        min = range.min.CeilValue();
      }
      if (step == 0 || (requested - min) % step != 0) return true;
    }
    return false;
  }
  if (!policy.valid_values.empty()) {
    for (const Quantity& value : policy.valid_values) {
      if (consumed == value) return false;
    }
    return true;
  }
  return false;
}

}  // namespace gcushare::dra_scheduler
