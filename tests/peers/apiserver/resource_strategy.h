// What the real registry does to an object on create and update, per type:
// the "strategy" of pkg/registry/core/<type>/strategy.go plus the generic
// rest.BeforeCreate/BeforeUpdate steps this stand-in keeps.
//
// Create: system fields (uid, creationTimestamp; generateName resolved),
// then for pods status reset to {phase: Pending, qosClass} and the defaults
// the real defaulting and default admission plugins add (schedulerName,
// restartPolicy, dnsPolicy, terminationGracePeriodSeconds, securityContext,
// enableServiceLinks, priority, preemptionPolicy, the two
// DefaultTolerationSeconds tolerations, and per container requests copied
// from limits, imagePullPolicy and the termination message fields).
// Update: uid and creationTimestamp are kept; on the main resource the old
// status is kept (pods, nodes); on /status everything outside status is kept
// except labels and annotations (pods also keep ownerReferences), which is
// what the real pods/status and nodes/status strategies do.
//
// Thread-safety: pure functions (the IdGenerator is thread-safe). Failure:
// validation problems are returned as FieldErrors for a 422 Invalid.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_RESOURCE_STRATEGY_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_RESOURCE_STRATEGY_H_

#include <string>
#include <string_view>
#include <vector>

#include "tests/peers/apiserver/api_status.h"
#include "tests/peers/apiserver/id_generator.h"
#include "tests/peers/apiserver/json.h"
#include "tests/peers/apiserver/resource_kind.h"

namespace gcushare::apiserver {

// metadata.name (or generateName) present and a DNS subdomain.
std::vector<FieldError> ValidateObjectName(const Json& object);

// ValidateObjectName, then the kind's own validate_create.
std::vector<FieldError> ValidateForCreate(const ResourceKind& kind,
                                          const Json& object);

// Sets uid, creationTimestamp and a name from generateName (and generation 1
// for kinds with has_generation), then applies the type's create preparation
// and defaults (prepare_create).
void PrepareForCreate(const ResourceKind& kind, IdGenerator& ids, Json& object);

// Carries over from `old` what `updated` may not change through
// `subresource` ("" or "status"), bumps metadata.generation on a spec change
// (kinds with has_generation), runs the kind's prepare_update; returns errors
// for a changed uid and the kind's validate_update errors.
std::vector<FieldError> PrepareForUpdate(const ResourceKind& kind,
                                         std::string_view subresource,
                                         const Json& old, Json& updated);

// BestEffort, Burstable or Guaranteed, from the containers' cpu and memory
// requests and limits (quantities compared as written).
std::string PodQosClass(const Json& pod);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_RESOURCE_STRATEGY_H_
