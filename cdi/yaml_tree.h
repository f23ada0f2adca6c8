// Conversion between YAML documents and JSON trees (yaml-cpp on one side,
// nlohmann::json on the other). Used by parser.h; not meant for other
// components.
//
// Pure functions; thread-safe (yaml-cpp keeps no global state); never throw:
// yaml-cpp exceptions are caught here.
#ifndef GCUSHARE_CDI_YAML_TREE_H_
#define GCUSHARE_CDI_YAML_TREE_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::cdi {

// Parses one YAML document into the JSON tree it denotes (see
// yaml_scalar.h for scalar typing; map keys are always strings). Refuses
// empty input, several documents, duplicate keys, non-scalar keys,
// unsupported tags and alias bombs. Errors read
// "<file_name> line <n>: <problem>".
StatusOr<nlohmann::json> YamlToJson(std::string_view text,
                                    std::string_view file_name);

// Block-style YAML for `tree`, ending with a newline, keys in writing order
// (key_order.h); strings that
// NeedsQuoting() are double-quoted; empty lists and maps are [] and {}.
std::string JsonToYaml(const nlohmann::json& tree);

}  // namespace gcushare::cdi

#endif  // GCUSHARE_CDI_YAML_TREE_H_
