#include "kube/event.h"

#include <cstdio>
#include <ctime>

namespace gcushare::kube {
namespace {

// Object names are DNS subdomains of at most 253 characters.
constexpr size_t kMaxNameLength = 253;

}  // namespace

std::string EventNamespace(std::string_view ns,
                           const ObjectReference& involved) {
  if (!ns.empty()) return std::string(ns);
  if (!involved.namespace_name.empty()) return involved.namespace_name;
  return "default";
}

std::string FormatRfc3339(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

nlohmann::json BuildEvent(std::string_view ns, const ObjectReference& involved,
                          const EventFields& fields,
                          std::chrono::system_clock::time_point now,
                          uint64_t unique) {
  char suffix[20];
  std::snprintf(suffix, sizeof(suffix), ".%016llx",
                static_cast<unsigned long long>(unique));
  std::string name = involved.name.substr(
      0, kMaxNameLength - std::char_traits<char>::length(suffix));
  name += suffix;

  nlohmann::json involved_object = {{"kind", involved.kind},
                                    {"name", involved.name},
                                    {"apiVersion", involved.api_version}};
  if (!involved.namespace_name.empty()) {
    involved_object["namespace"] = involved.namespace_name;
  }
  if (!involved.uid.empty()) involved_object["uid"] = involved.uid;

  const std::string timestamp = FormatRfc3339(now);
  nlohmann::json source = {{"component", fields.reporting_component}};
  if (involved.kind == "Node") source["host"] = involved.name;
  return {
      {"apiVersion", "v1"},
      {"kind", "Event"},
      {"metadata",
       {{"name", name}, {"namespace", EventNamespace(ns, involved)}}},
      {"involvedObject", std::move(involved_object)},
      {"reason", fields.reason},
      {"message", fields.message},
      {"type", fields.type},
      {"firstTimestamp", timestamp},
      {"lastTimestamp", timestamp},
      {"count", 1},
      {"source", std::move(source)},
      {"reportingComponent", fields.reporting_component},
      {"reportingInstance", fields.reporting_instance},
  };
}

}  // namespace gcushare::kube
