// Serialises Kubernetes objects the way kube-scheduler's Go code does when
// it sends them to an extender: encoding/json over the typed core/v1 structs.
//
// Two things differ from nlohmann's dump():
//   - key order: a Go struct marshals its fields in declaration order
//     (Pod: metadata, spec, status; ObjectMeta: name, generateName,
//     namespace, ...), while maps (labels, resource lists) marshal with
//     sorted keys. nlohmann::json keeps keys sorted, so every object whose
//     Go type is known gets its fields re-ordered from a table of the
//     core/v1 types (go_json.cc). Keys the table does not know follow the
//     known ones, sorted (a typed Go decoder would have dropped them).
//   - string escapes: Go escapes <, >, & as \u003c, \u003e, \u0026,
//     U+2028/U+2029 as \u2028/\u2029, other control characters as \u00XX
//     (lower-case hex) except \b \f \n \r \t, and replaces invalid UTF-8
//     with U+FFFD.
//
// Pure functions; thread-safe.
#ifndef GCUSHARE_TESTS_PEERS_SCHEDULER_GO_JSON_H_
#define GCUSHARE_TESTS_PEERS_SCHEDULER_GO_JSON_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace gcushare::scheduler {

// Go type names the encoder knows: "Pod", "Node", "NodeList" and their
// parts. An empty or unknown name marshals every object with sorted keys.
inline constexpr std::string_view kGoPod = "Pod";
inline constexpr std::string_view kGoNode = "Node";
inline constexpr std::string_view kGoNodeList = "NodeList";

// Compact JSON of `value` as Go would write a value of type `go_type`.
std::string GoJson(const nlohmann::json& value, std::string_view go_type);

// Appends a JSON string literal with Go's escaping.
void AppendGoJsonString(std::string_view text, std::string& out);

}  // namespace gcushare::scheduler

#endif  // GCUSHARE_TESTS_PEERS_SCHEDULER_GO_JSON_H_
