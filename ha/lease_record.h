// LeaseRecord: the part of a coordination.k8s.io/v1 Lease that leader
// election reads and writes (spec.holderIdentity, leaseDurationSeconds,
// acquireTime, renewTime, leaseTransitions), plus the URL at which the
// holder answers the other replicas (annotation kLeaderUrlAnnotation).
//
// Pure functions, table-tested: ParseLease never throws (a Lease whose
// fields have the wrong JSON type is InvalidArgument), LeaseObject builds
// the object to create or PUT. Times are MicroTime (RFC 3339 with
// microseconds, UTC), as the API server stores them.
#ifndef GCUSHARE_HA_LEASE_RECORD_H_
#define GCUSHARE_HA_LEASE_RECORD_H_

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "kube/resource.h"
#include "status/status.h"

namespace gcushare::ha {

// coordination.k8s.io/v1 leases.
kube::Resource LeaseResource();

// Where the holder announces its URL (read by forwarding followers).
inline constexpr std::string_view kLeaderUrlAnnotation =
    "gcushare.enflame.com/leader-url";

struct LeaseRecord {
  std::string holder;  // "" when released or never held.
  int64_t lease_duration_seconds = 0;
  std::string acquire_time;  // MicroTime text, as read or written.
  std::string renew_time;
  int64_t transitions = 0;
  std::string leader_url;
  // metadata.resourceVersion of the object read (the PUT's precondition).
  std::string resource_version;

  // Same holder, times, duration, transitions and URL (what client-go
  // compares to decide whether the record moved).
  bool SameRecord(const LeaseRecord& other) const;
};

// The record of `lease`; InvalidArgument when a field has the wrong type.
StatusOr<LeaseRecord> ParseLease(const nlohmann::json& lease);

// The Lease `ns`/`name` holding `record` (resourceVersion set when not
// empty, so a PUT is conditional).
nlohmann::json LeaseObject(std::string_view ns, std::string_view name,
                           const LeaseRecord& record);

// "2026-11-28T18:04:06.123456Z".
std::string FormatMicroTime(std::chrono::system_clock::time_point time);

}  // namespace gcushare::ha

#endif  // GCUSHARE_HA_LEASE_RECORD_H_
