// Reading CDI spec files (JSON or YAML) into one JSON tree, and writing a
// JSON tree as YAML.
//
// YAML is converted to exactly the tree the same document would give as
// JSON: maps, lists, and scalars resolved by the YAML 1.2 core schema (plain
// 12 is an integer, plain true a boolean, plain null/~/empty a null, quoted
// "12" a string). So the validator and every consumer see one model.
//
// Pure functions apart from ReadSpecFile's read; thread-safe. Never throw:
// nlohmann and yaml-cpp exceptions are caught and turned into InvalidArgument
// naming the file and the 1-based line ("/etc/cdi/x.yaml line 4: ...").
#ifndef GCUSHARE_CDI_PARSER_H_
#define GCUSHARE_CDI_PARSER_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::cdi {

// Parses a spec. JSON when the first non-blank character is '{', YAML
// otherwise. `file_name` is used only in messages. Does not validate the
// spec (see validator.h); only the syntax and the scalar types.
StatusOr<nlohmann::json> ParseSpecText(std::string_view text,
                                       std::string_view file_name);

// Reads and parses a file. A missing or unreadable file gives the
// errno-derived Status naming the path (NotFound when missing).
StatusOr<nlohmann::json> ReadSpecFile(const std::string& path);

// YAML for a JSON tree, in block style, ending with a newline. Strings that
// a YAML reader (1.2 core schema, or the older 1.1 rules Go's yaml packages
// apply) could take for a number, boolean or null, e.g. the device name "0",
// are double-quoted, so ParseSpecText(ToYaml(j)) == j.
std::string ToYaml(const nlohmann::json& tree);

}  // namespace gcushare::cdi

#endif  // GCUSHARE_CDI_PARSER_H_
