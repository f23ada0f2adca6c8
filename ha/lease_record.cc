#include "ha/lease_record.h"

#include <ctime>

namespace gcushare::ha {
namespace {

// The string at `key` of `object` ("" when absent or null), or an error
// when it is there with another type.
Status ReadString(const nlohmann::json& object, const char* key,
                  std::string* out) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return OkStatus();
  if (!it->is_string()) {
    return InvalidArgumentError(std::string("Lease field ") + key +
                                " is not a string");
  }
  *out = it->get<std::string>();
  return OkStatus();
}

Status ReadInt(const nlohmann::json& object, const char* key, int64_t* out) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return OkStatus();
  if (!it->is_number_integer()) {
    return InvalidArgumentError(std::string("Lease field ") + key +
                                " is not an integer");
  }
  *out = it->get<int64_t>();
  return OkStatus();
}

}  // namespace

kube::Resource LeaseResource() {
  return {"coordination.k8s.io", "v1", "leases", true};
}

bool LeaseRecord::SameRecord(const LeaseRecord& other) const {
  return holder == other.holder &&
         lease_duration_seconds == other.lease_duration_seconds &&
         acquire_time == other.acquire_time && renew_time == other.renew_time &&
         transitions == other.transitions && leader_url == other.leader_url;
}

StatusOr<LeaseRecord> ParseLease(const nlohmann::json& lease) {
  if (!lease.is_object()) return InvalidArgumentError("Lease is not an object");
  LeaseRecord record;
  static const nlohmann::json kEmpty = nlohmann::json::object();
  auto section = [&](const char* key) -> const nlohmann::json* {
    auto it = lease.find(key);
    if (it == lease.end() || it->is_null()) return &kEmpty;
    return it->is_object() ? &*it : nullptr;
  };
  const nlohmann::json* meta = section("metadata");
  const nlohmann::json* spec = section("spec");
  if (meta == nullptr || spec == nullptr) {
    return InvalidArgumentError("Lease metadata or spec is not an object");
  }
  GCUSHARE_RETURN_IF_ERROR(
      ReadString(*meta, "resourceVersion", &record.resource_version));
  auto annotations = meta->find("annotations");
  if (annotations != meta->end() && !annotations->is_null()) {
    if (!annotations->is_object()) {
      return InvalidArgumentError("Lease annotations are not an object");
    }
    GCUSHARE_RETURN_IF_ERROR(
        ReadString(*annotations, std::string(kLeaderUrlAnnotation).c_str(),
                   &record.leader_url));
  }
  GCUSHARE_RETURN_IF_ERROR(ReadString(*spec, "holderIdentity", &record.holder));
  GCUSHARE_RETURN_IF_ERROR(
      ReadInt(*spec, "leaseDurationSeconds", &record.lease_duration_seconds));
  GCUSHARE_RETURN_IF_ERROR(
      ReadString(*spec, "acquireTime", &record.acquire_time));
  GCUSHARE_RETURN_IF_ERROR(ReadString(*spec, "renewTime", &record.renew_time));
  GCUSHARE_RETURN_IF_ERROR(
      ReadInt(*spec, "leaseTransitions", &record.transitions));
  if (record.lease_duration_seconds < 0 || record.transitions < 0) {
    return InvalidArgumentError(
        "Lease leaseDurationSeconds or leaseTransitions is negative");
  }
  return record;
}

nlohmann::json LeaseObject(std::string_view ns, std::string_view name,
                           const LeaseRecord& record) {
  nlohmann::json lease = {
      {"apiVersion", "coordination.k8s.io/v1"},
      {"kind", "Lease"},
      {"metadata",
       {{"name", std::string(name)},
        {"namespace", std::string(ns)},
        {"annotations",
         {{std::string(kLeaderUrlAnnotation), record.leader_url}}}}},
      {"spec",
       {{"holderIdentity", record.holder},
        {"leaseDurationSeconds", record.lease_duration_seconds},
        {"leaseTransitions", record.transitions}}}};
  if (!record.acquire_time.empty()) {
    lease["spec"]["acquireTime"] = record.acquire_time;
  }
  if (!record.renew_time.empty()) {
    lease["spec"]["renewTime"] = record.renew_time;
  }
  if (!record.resource_version.empty()) {
    lease["metadata"]["resourceVersion"] = record.resource_version;
  }
  return lease;
}

std::string FormatMicroTime(std::chrono::system_clock::time_point time) {
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                          time.time_since_epoch())
                          .count();
  std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
  int64_t fraction = micros % 1000000;
  if (fraction < 0) {
    fraction += 1000000;
    --seconds;
  }
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[40];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%S", &utc);
  char out[64];
  std::snprintf(out, sizeof(out), "%s.%06lldZ", buffer,
                static_cast<long long>(fraction));
  return out;
}

}  // namespace gcushare::ha
