#include "tests/peers/apiserver/dra_validation.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <utility>

#include "tests/peers/apiserver/request_policy_validation.h"
#include "tests/peers/apiserver/resource_strategy.h"

namespace gcushare::apiserver {
namespace {

constexpr size_t kMaxDevices = 128;
constexpr size_t kMaxDevicesWithAdvancedFeatures = 64;
constexpr size_t kMaxAttributesAndCapacities = 32;
constexpr size_t kMaxAttributeValueLength = 64;
constexpr size_t kMaxIdLength = 32;
constexpr size_t kMaxDriverNameLength = 63;
constexpr size_t kMaxPoolNameLength = 253;
constexpr size_t kMaxRequests = 32;
constexpr size_t kMaxSelectors = 32;
constexpr size_t kMaxResults = 32;
constexpr size_t kMaxReservedFor = 256;

using Errors = std::vector<FieldError>;

const Json* Child(const Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

std::string StringOf(const Json* v) {
  return v != nullptr && v->is_string() ? v->get<std::string>() : "";
}

// A map's keys in sorted order, so that errors come in a stable order.
std::vector<std::string> SortedKeys(const Json& map) {
  std::vector<std::string> keys;
  for (auto it = map.begin(); it != map.end(); ++it) keys.push_back(it.key());
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::string Index(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

// The path of a map's entry: "<path>[<key>]".
std::string Entry(const std::string& path, const std::string& key) {
  return path + "[" + key + "]";
}

// How a JSON value shows in "Invalid value: ...".
std::string ShowValue(const Json& v) {
  if (v.is_string()) return GoQuote(v.get<std::string>());
  return v.dump();
}

// corevalidation.ValidateCSIDriverName, used for drivers and domains.
void ValidateDriverName(const std::string& name, const std::string& path,
                        Errors& errs) {
  if (name.empty()) {
    errs.push_back(FieldError::Required(path));
    return;
  }
  if (name.size() > kMaxDriverNameLength) {
    errs.push_back(FieldError::TooLong(path, kMaxDriverNameLength));
  }
  std::string lower = name;
  for (char& c : lower) c = static_cast<char>(std::tolower(c));
  if (!IsDnsSubdomain(lower)) {
    errs.push_back(
        FieldError::Invalid(path, GoQuote(name), kDnsSubdomainMessage));
  }
}

void ValidateDnsLabel(const std::string& value, const std::string& path,
                      Errors& errs) {
  if (value.size() > 63) {
    errs.push_back(FieldError::Invalid(path, GoQuote(value),
                                       "must be no more than 63 characters"));
  }
  if (!IsDnsLabel(value.substr(0, 63)) || value.empty()) {
    errs.push_back(FieldError::Invalid(path, GoQuote(value), kDnsLabelMessage));
  }
}

void ValidateDnsSubdomain(const std::string& value, const std::string& path,
                          Errors& errs) {
  if (value.size() > 253) {
    errs.push_back(FieldError::Invalid(path, GoQuote(value),
                                       "must be no more than 253 characters"));
  }
  if (!IsDnsSubdomain(value.substr(0, 253))) {
    errs.push_back(
        FieldError::Invalid(path, GoQuote(value), kDnsSubdomainMessage));
  }
}

void ValidateCIdentifier(const std::string& id, const std::string& path,
                         Errors& errs) {
  if (id.size() > kMaxIdLength)
    errs.push_back(FieldError::TooLong(path, kMaxIdLength));
  static const std::regex kCIdentifier("[A-Za-z_][A-Za-z0-9_]*");
  if (!std::regex_match(id, kCIdentifier)) {
    errs.push_back(FieldError::Invalid(
        path, GoQuote(id),
        "a valid C identifier must start with alphabetic character or '_', "
        "followed by a string of alphanumeric characters or '_' (e.g. "
        "'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation "
        "is '[A-Za-z_][A-Za-z0-9_]*')"));
  }
}

// An attribute or capacity name: a C identifier, or "<domain>/<identifier>".
void ValidateQualifiedName(const std::string& name, const std::string& path,
                           Errors& errs) {
  const size_t slash = name.find('/');
  if (slash == std::string::npos) {
    ValidateCIdentifier(name, path, errs);
    return;
  }
  if (name.find('/', slash + 1) != std::string::npos) {
    errs.push_back(FieldError::Invalid(path, GoQuote(name),
                                       "must not contain more than one slash"));
    return;
  }
  const std::string domain = name.substr(0, slash);
  const std::string id = name.substr(slash + 1);
  if (domain.empty()) {
    errs.push_back(
        FieldError::Invalid(path, "\"\"", "the domain must not be empty"));
  } else {
    ValidateDriverName(domain, path, errs);
  }
  if (id.empty()) {
    errs.push_back(
        FieldError::Invalid(path, "\"\"", "the name must not be empty"));
  } else {
    ValidateCIdentifier(id, path, errs);
  }
}

void ValidateAttribute(const Json& attribute, const std::string& path,
                       Errors& errs) {
  int fields = 0;
  for (const char* key : {"int", "bool", "string", "version", "ints", "bools",
                          "strings", "versions"}) {
    if (Child(attribute, key) != nullptr) ++fields;
  }
  if (const Json* s = Child(attribute, "string"); s != nullptr) {
    if (s->is_string() &&
        s->get<std::string>().size() > kMaxAttributeValueLength) {
      errs.push_back(
          FieldError::TooLong(path + ".string", kMaxAttributeValueLength));
    }
  }
  if (const Json* v = Child(attribute, "version"); v != nullptr) {
    // semver.org 2.0.0.
    static const std::regex kSemver(
        "(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"
        "(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)"
        "(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
        "(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?");
    const std::string version = StringOf(v);
    if (!std::regex_match(version, kSemver)) {
      errs.push_back(
          FieldError::Invalid(path + ".version", GoQuote(version),
                              "must be a string compatible with semver.org "
                              "spec 2.0.0"));
    }
    if (version.size() > kMaxAttributeValueLength) {
      errs.push_back(
          FieldError::TooLong(path + ".version", kMaxAttributeValueLength));
    }
  }
  if (fields == 0) {
    errs.push_back(FieldError::Invalid(path, "\"\"",
                                       "exactly one value must be specified"));
  } else if (fields > 1) {
    errs.push_back(FieldError::Invalid(path, ShowValue(attribute),
                                       "exactly one value must be specified"));
  }
}

void ValidateDevice(const Json& device, const std::string& path, Errors& errs) {
  ValidateDnsLabel(StringOf(Child(device, "name")), path + ".name", errs);
  const Json* attributes = Child(device, "attributes");
  const Json* capacity = Child(device, "capacity");
  const size_t count =
      (attributes != nullptr && attributes->is_object() ? attributes->size()
                                                        : 0) +
      (capacity != nullptr && capacity->is_object() ? capacity->size() : 0);
  if (count > kMaxAttributesAndCapacities) {
    errs.push_back(
        FieldError::Invalid(path, std::to_string(count),
                            "the total number of attributes and capacities "
                            "must not exceed " +
                                std::to_string(kMaxAttributesAndCapacities)));
  }
  if (attributes != nullptr && attributes->is_object()) {
    for (const std::string& key : SortedKeys(*attributes)) {
      const std::string apath = Entry(path + ".attributes", key);
      ValidateQualifiedName(key, apath, errs);
      ValidateAttribute((*attributes)[key], apath, errs);
    }
  }
  const Json* multiple = Child(device, "allowMultipleAllocations");
  const bool multi =
      multiple != nullptr && multiple->is_boolean() && multiple->get<bool>();
  if (capacity != nullptr && capacity->is_object()) {
    for (const std::string& key : SortedKeys(*capacity)) {
      const Json& entry = (*capacity)[key];
      const std::string cpath = Entry(path + ".capacity", key);
      ValidateQualifiedName(key, cpath, errs);
      const Json* policy = Child(entry, "requestPolicy");
      if (policy == nullptr) continue;
      if (!multi) {
        errs.push_back(FieldError::Make(
            FieldError::Type::kForbidden, cpath + ".requestPolicy", "",
            "allowMultipleAllocations must be true"));
        continue;
      }
      ValidateRequestPolicy(entry, *policy, cpath + ".requestPolicy", errs);
    }
  }
}

bool HasNonEmpty(const Json& device, const char* key) {
  const Json* v = Child(device, key);
  return v != nullptr && v->is_array() && !v->empty();
}

void ValidateImmutable(const Json* now, const Json* before,
                       const std::string& path, Errors& errs) {
  const Json null_value;
  const Json& a = now == nullptr ? null_value : *now;
  const Json& b = before == nullptr ? null_value : *before;
  if (a != b) {
    errs.push_back(FieldError::Invalid(
        path, a.is_null() ? "null" : ShowValue(a), "field is immutable"));
  }
}

// spec.pool: its name, resourceSliceCount and generation.
void ValidatePool(const Json& pool, Errors& errs) {
  const std::string pool_name = StringOf(Child(pool, "name"));
  if (pool_name.empty()) {
    errs.push_back(FieldError::Required("spec.pool.name"));
  } else {
    if (pool_name.size() > kMaxPoolNameLength) {
      errs.push_back(FieldError::TooLong("spec.pool.name", kMaxPoolNameLength));
    }
    size_t start = 0;
    while (true) {
      const size_t slash = pool_name.find('/', start);
      const std::string part = pool_name.substr(start, slash - start);
      if (!IsDnsSubdomain(part)) {
        errs.push_back(FieldError::Invalid("spec.pool.name", GoQuote(part),
                                           kDnsSubdomainMessage));
      }
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
  }
  const Json* count = Child(pool, "resourceSliceCount");
  const int64_t slice_count = count != nullptr && count->is_number_integer()
                                  ? count->get<int64_t>()
                                  : 0;
  if (slice_count <= 0) {
    errs.push_back(FieldError::Invalid("spec.pool.resourceSliceCount",
                                       std::to_string(slice_count),
                                       "must be greater than zero"));
  }
  const Json* generation = Child(pool, "generation");
  if (generation != nullptr && generation->is_number_integer() &&
      generation->get<int64_t>() < 0) {
    errs.push_back(FieldError::Invalid(
        "spec.pool.generation", std::to_string(generation->get<int64_t>()),
        "must be greater than or equal to zero"));
  }
}

// What an update must not change.
void ValidateSliceImmutables(const Json& spec, const Json& pool,
                             const Json& old_spec, Errors& errs) {
  const Json* old_pool = Child(old_spec, "pool");
  ValidateImmutable(Child(pool, "name"),
                    old_pool == nullptr ? nullptr : Child(*old_pool, "name"),
                    "spec.pool.name", errs);
  ValidateImmutable(Child(spec, "driver"), Child(old_spec, "driver"),
                    "spec.driver", errs);
  ValidateImmutable(Child(spec, "nodeName"), Child(old_spec, "nodeName"),
                    "spec.nodeName", errs);
}

// Exactly one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection.
void ValidateNodeSelection(const Json& spec, Errors& errs) {
  std::vector<std::string> set_fields;
  if (const Json* node = Child(spec, "nodeName"); node != nullptr) {
    if (StringOf(node).empty()) {
      errs.push_back(
          FieldError::Invalid("spec.nodeName", "\"\"",
                              "must be either unset or set to a non-empty "
                              "string"));
    } else {
      set_fields.emplace_back("`nodeName`");
    }
  }
  if (Child(spec, "nodeSelector") != nullptr) {
    set_fields.emplace_back("`nodeSelector`");
  }
  for (const char* key : {"allNodes", "perDeviceNodeSelection"}) {
    const Json* v = Child(spec, key);
    if (v == nullptr) continue;
    if (v->is_boolean() && v->get<bool>()) {
      set_fields.push_back(std::string("`") + key + "`");
    } else {
      errs.push_back(
          FieldError::Invalid(std::string("spec.") + key, "false",
                              "must be either unset or set to true"));
    }
  }
  constexpr char kOneOf[] =
      "exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
      "`perDeviceNodeSelection` is required";
  if (set_fields.empty()) {
    errs.push_back(FieldError::Required("spec", kOneOf));
  } else if (set_fields.size() > 1) {
    std::string joined;
    for (const std::string& f : set_fields) {
      if (!joined.empty()) joined += ", ";
      joined += f;
    }
    errs.push_back(FieldError::Invalid(
        "spec", GoQuote("{" + joined + "}"),
        std::string(kOneOf) + ", but multiple fields are set"));
  }
}

// spec.devices (or sharedCounters): their number and each device.
void ValidateSliceDevices(const Json& spec, Errors& errs) {
  const Json* devices = Child(spec, "devices");
  if (Child(spec, "sharedCounters") != nullptr && devices != nullptr) {
    errs.push_back(
        FieldError::Invalid("spec", "\"\"",
                            "only one of `sharedCounters` or `devices` is "
                            "allowed"));
  }
  if (devices == nullptr || !devices->is_array()) return;
  size_t max_devices = kMaxDevices;
  for (const Json& d : *devices) {
    if (HasNonEmpty(d, "taints") || HasNonEmpty(d, "consumesCounters")) {
      max_devices = kMaxDevicesWithAdvancedFeatures;
    }
  }
  if (devices->size() > max_devices) {
    errs.push_back(
        FieldError::TooMany("spec.devices", devices->size(), max_devices));
    return;  // Like validateSet: the items are not checked then.
  }
  std::set<std::string> names;
  for (size_t i = 0; i < devices->size(); ++i) {
    const std::string path = Index("spec.devices", i);
    const Json& device = (*devices)[i];
    ValidateDevice(device, path, errs);
    const std::string name = StringOf(Child(device, "name"));
    if (!names.insert(name).second) {
      errs.push_back(FieldError::Make(FieldError::Type::kDuplicate, path,
                                      GoQuote(name), ""));
    }
  }
}

void ValidateSliceSpec(const Json& spec, const Json* old_spec, Errors& errs) {
  const std::string driver = StringOf(Child(spec, "driver"));
  ValidateDriverName(driver, "spec.driver", errs);
  const Json* pool = Child(spec, "pool");
  const Json empty = Json::object();
  if (pool == nullptr) pool = &empty;
  ValidatePool(*pool, errs);
  if (old_spec != nullptr) {
    ValidateSliceImmutables(spec, *pool, *old_spec, errs);
  }
  ValidateNodeSelection(spec, errs);
  ValidateSliceDevices(spec, errs);
}

void ValidateAllocationMode(const Json& request, const std::string& path,
                            Errors& errs) {
  const std::string mode = StringOf(Child(request, "allocationMode"));
  const Json* count = Child(request, "count");
  const int64_t n = count != nullptr && count->is_number_integer()
                        ? count->get<int64_t>()
                        : 0;
  if (mode == "All") {
    if (n != 0) {
      errs.push_back(
          FieldError::Invalid(path + ".count", std::to_string(n),
                              "must not be specified when allocationMode is "
                              "'All'"));
    }
  } else if (mode == "ExactCount") {
    if (n <= 0) {
      errs.push_back(FieldError::Invalid(path + ".count", std::to_string(n),
                                         "must be greater than zero"));
    }
  } else {
    FieldError e =
        FieldError::Make(FieldError::Type::kNotSupported,
                         path + ".allocationMode", GoQuote(mode), "");
    e.supported = {"\"All\"", "\"ExactCount\""};
    errs.push_back(e);
  }
}

void ValidateSelectors(const Json& request, const std::string& path,
                       Errors& errs) {
  const Json* selectors = Child(request, "selectors");
  if (selectors != nullptr && selectors->is_array() &&
      selectors->size() > kMaxSelectors) {
    errs.push_back(FieldError::TooMany(path, selectors->size(), kMaxSelectors));
  }
}

void ValidateDeviceClassName(const Json& request, const std::string& path,
                             Errors& errs) {
  const std::string name = StringOf(Child(request, "deviceClassName"));
  if (name.empty()) {
    errs.push_back(FieldError::Required(path));
  } else {
    ValidateDnsSubdomain(name, path, errs);
  }
}

void ValidateClaimSpec(const Json& spec, const std::string& path,
                       Errors& errs) {
  const Json* devices = Child(spec, "devices");
  if (devices == nullptr) return;
  const Json* requests = Child(*devices, "requests");
  if (requests == nullptr || !requests->is_array()) return;
  const std::string rpath = path + ".devices.requests";
  if (requests->size() > kMaxRequests) {
    errs.push_back(FieldError::TooMany(rpath, requests->size(), kMaxRequests));
    return;
  }
  std::set<std::string> names;
  for (size_t i = 0; i < requests->size(); ++i) {
    const Json& request = (*requests)[i];
    const std::string p = Index(rpath, i);
    const std::string name = StringOf(Child(request, "name"));
    ValidateDnsLabel(name, p + ".name", errs);
    const Json* exactly = Child(request, "exactly");
    const Json* first = Child(request, "firstAvailable");
    const bool has_first =
        first != nullptr && first->is_array() && !first->empty();
    if (exactly == nullptr && !has_first) {
      errs.push_back(FieldError::Required(
          p, "exactly one of `exactly` or `firstAvailable` is required"));
    } else if (exactly != nullptr && has_first) {
      errs.push_back(
          FieldError::Invalid(p, "null",
                              "exactly one of `exactly` or `firstAvailable` "
                              "is required, but multiple fields are set"));
    } else if (exactly != nullptr) {
      const std::string e = p + ".exactly";
      ValidateDeviceClassName(*exactly, e + ".deviceClassName", errs);
      ValidateSelectors(*exactly, e + ".selectors", errs);
      ValidateAllocationMode(*exactly, e, errs);
    } else {
      std::set<std::string> sub_names;
      for (size_t j = 0; j < first->size(); ++j) {
        const Json& sub = (*first)[j];
        const std::string s = Index(p + ".firstAvailable", j);
        const std::string sub_name = StringOf(Child(sub, "name"));
        ValidateDnsLabel(sub_name, s + ".name", errs);
        ValidateDeviceClassName(sub, s + ".deviceClassName", errs);
        ValidateSelectors(sub, s + ".selectors", errs);
        ValidateAllocationMode(sub, s, errs);
        if (!sub_names.insert(sub_name).second) {
          errs.push_back(FieldError::Make(FieldError::Type::kDuplicate, s,
                                          GoQuote(sub_name), ""));
        }
      }
    }
    if (!names.insert(name).second) {
      errs.push_back(
          FieldError::Make(FieldError::Type::kDuplicate, p, GoQuote(name), ""));
    }
  }
}

}  // namespace

std::vector<FieldError> ValidateResourceSlice(const Json& slice,
                                              const Json* old) {
  Errors errs;
  const Json empty = Json::object();
  const Json* spec = Child(slice, "spec");
  const Json* old_spec = old == nullptr ? nullptr : Child(*old, "spec");
  if (old != nullptr && old_spec == nullptr) old_spec = &empty;
  ValidateSliceSpec(spec == nullptr ? empty : *spec, old_spec, errs);
  return errs;
}

std::vector<FieldError> ValidateResourceClaim(const Json& claim,
                                              const Json* old) {
  Errors errs;
  const Json* spec = Child(claim, "spec");
  if (old != nullptr) {
    // Only immutability is checked on update.
    ValidateImmutable(spec, Child(*old, "spec"), "spec", errs);
    return errs;
  }
  if (spec != nullptr) ValidateClaimSpec(*spec, "spec", errs);
  return errs;
}

std::vector<FieldError> ValidateResourceClaimStatus(const Json& claim,
                                                    const Json& old) {
  Errors errs;
  const Json empty = Json::object();
  const Json* status = Child(claim, "status");
  if (status == nullptr) status = &empty;
  const Json* old_status = Child(old, "status");
  if (old_status == nullptr) old_status = &empty;
  const Json* allocation = Child(*status, "allocation");
  const Json* devices =
      allocation == nullptr ? nullptr : Child(*allocation, "devices");
  const Json* results =
      devices == nullptr ? nullptr : Child(*devices, "results");
  const Json* old_allocation = Child(*old_status, "allocation");
  const bool new_allocation =
      allocation != nullptr &&
      (old_allocation == nullptr || *old_allocation != *allocation);
  if (results != nullptr && results->is_array() && new_allocation) {
    const std::string rpath = "status.allocation.devices.results";
    if (results->size() > kMaxResults) {
      errs.push_back(FieldError::TooMany(rpath, results->size(), kMaxResults));
    } else {
      // The request names of the claim ("req" or "req/sub").
      std::set<std::string> requests;
      const Json* spec = Child(claim, "spec");
      const Json* spec_devices =
          spec == nullptr ? nullptr : Child(*spec, "devices");
      const Json* spec_requests =
          spec_devices == nullptr ? nullptr : Child(*spec_devices, "requests");
      if (spec_requests != nullptr && spec_requests->is_array()) {
        for (const Json& r : *spec_requests) {
          const std::string name = StringOf(Child(r, "name"));
          const Json* first = Child(r, "firstAvailable");
          if (first == nullptr || !first->is_array() || first->empty()) {
            requests.insert(name);
            continue;
          }
          for (const Json& sub : *first) {
            requests.insert(name + "/" + StringOf(Child(sub, "name")));
          }
        }
      }
      for (size_t i = 0; i < results->size(); ++i) {
        const Json& result = (*results)[i];
        const std::string p = Index(rpath, i);
        const std::string request = StringOf(Child(result, "request"));
        if (requests.count(request) == 0) {
          errs.push_back(
              FieldError::Invalid(p + ".request", GoQuote(request),
                                  "must be the name of a request in the "
                                  "claim"));
        }
        ValidateDriverName(StringOf(Child(result, "driver")), p + ".driver",
                           errs);
        const std::string pool = StringOf(Child(result, "pool"));
        if (pool.empty()) {
          errs.push_back(FieldError::Required(p + ".pool"));
        }
        ValidateDnsLabel(StringOf(Child(result, "device")), p + ".device",
                         errs);
      }
    }
  }
  const Json* reserved = Child(*status, "reservedFor");
  if (reserved != nullptr && reserved->is_array()) {
    if (reserved->size() > kMaxReservedFor) {
      errs.push_back(FieldError::TooMany("status.reservedFor", reserved->size(),
                                         kMaxReservedFor));
    } else {
      std::set<std::string> uids;
      for (size_t i = 0; i < reserved->size(); ++i) {
        const std::string uid = StringOf(Child((*reserved)[i], "uid"));
        if (!uids.insert(uid).second) {
          errs.push_back(FieldError::Make(FieldError::Type::kDuplicate,
                                          Index("status.reservedFor", i),
                                          GoQuote(uid), ""));
        }
      }
    }
    if (!reserved->empty() && allocation == nullptr) {
      errs.push_back(FieldError::Make(
          FieldError::Type::kForbidden, "status.reservedFor", "",
          "may not be specified when `allocated` is "
          "not set"));
    }
  }
  if (old_allocation != nullptr && allocation != nullptr &&
      *old_allocation != *allocation) {
    errs.push_back(FieldError::Invalid(
        "status.allocation", ShowValue(*allocation), "field is immutable"));
  }
  return errs;
}

std::vector<FieldError> ValidateResourceClaimTemplate(const Json& tmpl,
                                                      const Json* old) {
  Errors errs;
  const Json* spec = Child(tmpl, "spec");
  if (old != nullptr) {
    ValidateImmutable(spec, Child(*old, "spec"), "spec", errs);
    return errs;
  }
  const Json* inner = spec == nullptr ? nullptr : Child(*spec, "spec");
  if (inner != nullptr) ValidateClaimSpec(*inner, "spec.spec", errs);
  return errs;
}

std::vector<FieldError> ValidateDeviceClass(const Json& device_class) {
  Errors errs;
  const Json* spec = Child(device_class, "spec");
  if (spec == nullptr) return errs;
  ValidateSelectors(*spec, "spec.selectors", errs);
  if (const Json* name = Child(*spec, "extendedResourceName");
      name != nullptr) {
    // v1helper.IsExtendedResourceName: a qualified name with a domain that is
    // not kubernetes.io, not prefixed "requests.".
    const std::string value = StringOf(name);
    const size_t slash = value.find('/');
    const std::string domain =
        slash == std::string::npos ? "" : value.substr(0, slash);
    const bool native =
        domain.empty() || domain == "kubernetes.io" ||
        (domain.size() > 14 &&
         domain.compare(domain.size() - 14, 14, ".kubernetes.io") == 0);
    if (native || value.rfind("requests.", 0) == 0 || !IsDnsSubdomain(domain) ||
        slash + 1 >= value.size()) {
      errs.push_back(
          FieldError::Invalid("spec.extendedResourceName", GoQuote(value),
                              "must be a valid extended resource name"));
    }
  }
  return errs;
}

}  // namespace gcushare::apiserver
