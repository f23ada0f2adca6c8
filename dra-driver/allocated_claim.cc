#include "dra-driver/allocated_claim.h"

#include <algorithm>
#include <string>

#include "contract/names.h"
#include "dra-driver/device_name.h"
#include "dra-driver/memory_quantity.h"
#include "json/bounded_parse.h"

namespace gcushare::dra {
namespace {

constexpr size_t kMaxResults =
    32;  // resource.k8s.io/v1 AllocationResultsMaxSize.
constexpr size_t kMaxReservedFor = 256;  // ResourceClaimReservedForMaxSize.
constexpr size_t kMaxNameLength = 253;

using nlohmann::json;

// The string member `key` of `object`, or nullopt when absent or null;
// an error when it is present with another type.
StatusOr<std::optional<std::string>> OptionalString(const json& object,
                                                    const char* key,
                                                    const std::string& where) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::optional<std::string>();
  if (!it->is_string()) {
    return InvalidArgumentError(where + "." + key + " is not a string");
  }
  return std::optional<std::string>(it->get<std::string>());
}

StatusOr<std::string> RequiredString(const json& object, const char* key,
                                     const std::string& where) {
  StatusOr<std::optional<std::string>> value =
      OptionalString(object, key, where);
  if (!value.ok()) return value.status();
  if (!value->has_value() || (*value)->empty()) {
    return InvalidArgumentError(where + "." + key + " is missing");
  }
  return **value;
}

// A name that ends up in CDI device names (share IDs) or in answers
// (request names): non-empty, bounded, CDI device-name characters plus '/'
// for "<request>/<subrequest>".
Status CheckToken(const std::string& value, const std::string& what,
                  bool allow_slash) {
  if (value.empty() || value.size() > kMaxNameLength) {
    return InvalidArgumentError(what + " must have 1 to 253 characters");
  }
  auto allowed = [allow_slash](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
           (allow_slash && c == '/');
  };
  if (!std::all_of(value.begin(), value.end(), allowed)) {
    return InvalidArgumentError(what + " \"" + value +
                                "\" has a character other than letters, "
                                "digits, '-', '_', '.'" +
                                (allow_slash ? " and '/'" : ""));
  }
  return OkStatus();
}

StatusOr<std::optional<uint64_t>> ConsumedMemory(const json& result,
                                                 const std::string& where) {
  auto it = result.find("consumedCapacity");
  if (it == result.end() || it->is_null()) return std::optional<uint64_t>();
  if (!it->is_object()) {
    return InvalidArgumentError(where + ".consumedCapacity is not a map");
  }
  const std::string qualified =
      std::string(contract::kDraDriverName) + "/memory";
  auto present = [&it](const std::string& key) -> const json* {
    auto found = it->find(key);
    return found == it->end() || found->is_null() ? nullptr : &*found;
  };
  const json* plain = present("memory");
  const json* prefixed = present(qualified);
  if (plain != nullptr && prefixed != nullptr) {
    return InvalidArgumentError(where +
                                ".consumedCapacity has both \"memory\" and "
                                "\"" +
                                qualified + "\"");
  }
  const json* quantity = plain != nullptr ? plain : prefixed;
  if (quantity == nullptr) return std::optional<uint64_t>();
  if (!quantity->is_string()) {
    return InvalidArgumentError(where +
                                ".consumedCapacity.memory is not a quantity "
                                "string");
  }
  StatusOr<uint64_t> millibytes =
      ParseMemoryMillibytes(quantity->get<std::string>());
  if (!millibytes.ok()) {
    return InvalidArgumentError(
        where + ".consumedCapacity.memory: " + millibytes.status().message());
  }
  return std::optional<uint64_t>(*millibytes);
}

// The claim's metadata names the claim asked for: same uid (not a claim
// deleted and re-created under the name), and name and namespace when set.
Status CheckMetadata(const json& claim, std::string_view ns,
                     std::string_view name, std::string_view uid) {
  const json empty = json::object();
  auto meta_it = claim.find("metadata");
  const json& metadata =
      meta_it != claim.end() && meta_it->is_object() ? *meta_it : empty;
  StatusOr<std::optional<std::string>> got_uid =
      OptionalString(metadata, "uid", "metadata");
  if (!got_uid.ok()) return got_uid.status();
  if (!got_uid->has_value() || **got_uid != uid) {
    return FailedPreconditionError(
        "the API server has uid \"" + got_uid->value_or("") +
        "\": the claim was deleted and re-created, not the one to prepare");
  }
  for (const char* key : {"name", "namespace"}) {
    StatusOr<std::optional<std::string>> value =
        OptionalString(metadata, key, "metadata");
    if (!value.ok()) return value.status();
    const std::string_view want = std::string(key) == "name" ? name : ns;
    if (value->has_value() && **value != want) {
      return FailedPreconditionError(std::string("metadata.") + key + " is \"" +
                                     **value + "\"");
    }
  }
  return OkStatus();
}

// status.allocation.devices.results of the claim's `status` (null when the
// allocation lists no devices); an error when the claim is not allocated or
// the list is malformed or too long.
StatusOr<const json*> FindResults(const json& status) {
  auto alloc_it = status.find("allocation");
  if (alloc_it == status.end() || alloc_it->is_null()) {
    return FailedPreconditionError(
        "status.allocation is not set: the claim is not allocated");
  }
  if (!alloc_it->is_object()) {
    return InvalidArgumentError("status.allocation is not an object");
  }
  const json* results = nullptr;
  auto devices_it = alloc_it->find("devices");
  if (devices_it != alloc_it->end() && !devices_it->is_null()) {
    if (!devices_it->is_object()) {
      return InvalidArgumentError("status.allocation.devices is not an object");
    }
    auto results_it = devices_it->find("results");
    if (results_it != devices_it->end() && !results_it->is_null()) {
      if (!results_it->is_array()) {
        return InvalidArgumentError(
            "status.allocation.devices.results is not a list");
      }
      results = &*results_it;
    }
  }
  if (results != nullptr && results->size() > kMaxResults) {
    return InvalidArgumentError("status.allocation.devices.results has " +
                                std::to_string(results->size()) +
                                " entries, more than 32");
  }
  return results;
}

// One allocation result (`where` names it in errors); nullopt when it is
// another driver's.
StatusOr<std::optional<AllocatedResult>> ParseResult(
    const json& entry, const std::string& where, std::string_view node_name) {
  if (!entry.is_object()) {
    return InvalidArgumentError(where + " is not an object");
  }
  StatusOr<std::string> driver = RequiredString(entry, "driver", where);
  if (!driver.ok()) return driver.status();
  if (*driver != contract::kDraDriverName) {
    return std::optional<AllocatedResult>();
  }

  AllocatedResult result;
  StatusOr<std::string> request = RequiredString(entry, "request", where);
  if (!request.ok()) return request.status();
  Status token = CheckToken(*request, where + ".request", true);
  if (!token.ok()) return token;
  result.request = *request;
  StatusOr<std::string> pool = RequiredString(entry, "pool", where);
  if (!pool.ok()) return pool.status();
  if (*pool != node_name) {
    return FailedPreconditionError(where + " is in pool \"" + *pool +
                                   "\", not this node's pool \"" +
                                   std::string(node_name) + "\"");
  }
  result.pool = *pool;
  StatusOr<std::string> device = RequiredString(entry, "device", where);
  if (!device.ok()) return device.status();
  StatusOr<uint32_t> index = ParseDeviceName(*device);
  if (!index.ok()) {
    return InvalidArgumentError(where + ".device: " + index.status().message());
  }
  result.device = *device;
  result.card_index = *index;
  StatusOr<std::optional<std::string>> share =
      OptionalString(entry, "shareID", where);
  if (!share.ok()) return share.status();
  if (share->has_value()) {
    token = CheckToken(**share, where + ".shareID", false);
    if (!token.ok()) return token;
    result.share_id = **share;
  }
  StatusOr<std::optional<uint64_t>> consumed = ConsumedMemory(entry, where);
  if (!consumed.ok()) return consumed.status();
  result.consumed_millibytes = *consumed;
  return std::optional<AllocatedResult>(std::move(result));
}

// status.reservedFor of the claim's `status`, appended to `out`.
Status ParseReservedFor(const json& status, std::vector<ClaimConsumer>* out) {
  auto reserved_it = status.find("reservedFor");
  if (reserved_it == status.end() || reserved_it->is_null()) {
    return OkStatus();
  }
  if (!reserved_it->is_array() || reserved_it->size() > kMaxReservedFor) {
    return InvalidArgumentError(
        "status.reservedFor is not a list of at most 256 entries");
  }
  for (size_t i = 0; i < reserved_it->size(); ++i) {
    const std::string where = "status.reservedFor[" + std::to_string(i) + "]";
    const json& entry = (*reserved_it)[i];
    if (!entry.is_object()) {
      return InvalidArgumentError(where + " is not an object");
    }
    ClaimConsumer consumer;
    StatusOr<std::optional<std::string>> group =
        OptionalString(entry, "apiGroup", where);
    if (!group.ok()) return group.status();
    consumer.api_group = group->value_or("");
    for (auto [key, field] :
         {std::pair{"resource", &consumer.resource},
          std::pair{"name", &consumer.name}, std::pair{"uid", &consumer.uid}}) {
      StatusOr<std::string> value = RequiredString(entry, key, where);
      if (!value.ok()) return value.status();
      *field = *value;
    }
    out->push_back(std::move(consumer));
  }
  return OkStatus();
}

StatusOr<AllocatedClaim> Parse(const json& claim, std::string_view ns,
                               std::string_view name, std::string_view uid,
                               std::string_view node_name) {
  const std::string who = DescribeClaim(ns, name, uid);
  auto fail = [&who](const Status& status) {
    return Status(status.code(), who + ": " + status.message());
  };
  if (!claim.is_object()) {
    return fail(InvalidArgumentError("not a JSON object"));
  }
  AllocatedClaim out;
  out.ns = std::string(ns);
  out.name = std::string(name);
  out.uid = std::string(uid);

  Status metadata = CheckMetadata(claim, ns, name, uid);
  if (!metadata.ok()) return fail(metadata);

  const json empty = json::object();
  auto status_it = claim.find("status");
  const json& status =
      status_it != claim.end() && status_it->is_object() ? *status_it : empty;
  StatusOr<const json*> results = FindResults(status);
  if (!results.ok()) return fail(results.status());
  for (size_t i = 0; *results != nullptr && i < (*results)->size(); ++i) {
    const std::string where =
        "status.allocation.devices.results[" + std::to_string(i) + "]";
    StatusOr<std::optional<AllocatedResult>> result =
        ParseResult((**results)[i], where, node_name);
    if (!result.ok()) return fail(result.status());
    if (result->has_value()) out.results.push_back(std::move(**result));
  }

  Status reserved = ParseReservedFor(status, &out.reserved_for);
  if (!reserved.ok()) return fail(reserved);
  return out;
}

}  // namespace

std::string BaseRequestName(std::string_view request) {
  return std::string(request.substr(0, request.find('/')));
}

std::string DescribeClaim(std::string_view ns, std::string_view name,
                          std::string_view uid) {
  return "claim " + std::string(ns) + "/" + std::string(name) + " (uid " +
         std::string(uid) + ")";
}

StatusOr<AllocatedClaim> ParseAllocatedClaim(const nlohmann::json& claim,
                                             std::string_view ns,
                                             std::string_view name,
                                             std::string_view uid,
                                             std::string_view node_name) {
  try {
    return Parse(claim, ns, name, uid, node_name);
  } catch (const std::exception& e) {
    return InvalidArgumentError(DescribeClaim(ns, name, uid) + ": " + e.what());
  }
}

StatusOr<AllocatedClaim> ParseAllocatedClaimJson(std::string_view text,
                                                 std::string_view ns,
                                                 std::string_view name,
                                                 std::string_view uid,
                                                 std::string_view node_name) {
  StatusOr<nlohmann::json> parsed =
      gcushare::json::ParseJson(text, DescribeClaim(ns, name, uid));
  if (!parsed.ok()) return parsed.status();
  return ParseAllocatedClaim(*parsed, ns, name, uid, node_name);
}

}  // namespace gcushare::dra
