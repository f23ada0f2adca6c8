// A core/v1 Event about an object, shaped the way kubelet and client-go's
// event recorder write them so that `kubectl describe` lists it:
// metadata.name "<object name>.<16 hex digits>", involvedObject,
// reason/message/type, firstTimestamp = lastTimestamp (RFC 3339, UTC),
// count 1, source.component, reportingComponent and reportingInstance.
// eventTime stays unset (the legacy form every API server accepts).
//
// Pure functions; thread-safe.
#ifndef GCUSHARE_KUBE_EVENT_H_
#define GCUSHARE_KUBE_EVENT_H_

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "kube/kube_client.h"

namespace gcushare::kube {

struct EventFields {
  std::string type = "Normal";  // "Normal" or "Warning"
  std::string reason;           // UpperCamelCase, e.g. "GcuAllocated"
  std::string message;
  std::string reporting_component;  // e.g. "gcushare-scheduler-extender"
  std::string reporting_instance;   // e.g. the host name
};

// The namespace an Event about `involved` must live in: `ns` when given,
// else the object's namespace, else "default" (cluster-scoped objects).
std::string EventNamespace(std::string_view ns,
                           const ObjectReference& involved);

// "2024-05-01T12:00:00Z"
std::string FormatRfc3339(std::chrono::system_clock::time_point time);

// `unique` makes the name unique (callers mix the time and a counter).
nlohmann::json BuildEvent(std::string_view ns, const ObjectReference& involved,
                          const EventFields& fields,
                          std::chrono::system_clock::time_point now,
                          uint64_t unique);

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_EVENT_H_
