// YAML text <-> yaml-cpp nodes for the config manager's edits.
//
// yaml-cpp's own emitter forgets which scalars were quoted, so a string
// such as "true" or "10259" written back plain would change type. EmitYaml
// writes a scalar that was quoted in the input (yaml-cpp tag "!") double-
// quoted, every other scalar as yaml-cpp chooses, nulls as "null", empty
// maps and sequences as {} and []. Comments and formatting of the input are
// not kept: that is why the config manager restores originals from byte
// copies, never from an emitted tree.
//
// Pure functions; thread-safe. Failure: InvalidArgument carrying yaml-cpp's
// message with its line and column; never throws.
#ifndef GCUSHARE_CONFIG_MANAGER_YAML_TEXT_H_
#define GCUSHARE_CONFIG_MANAGER_YAML_TEXT_H_

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::config_manager {

// Parses a file holding exactly one YAML document that is a map. `what`
// names the file in errors.
StatusOr<YAML::Node> ParseYamlMap(std::string_view text, std::string_view what);

// Block-style YAML text ending in a newline.
std::string EmitYaml(const YAML::Node& node);

// A new scalar node that EmitYaml writes as a string, whatever it looks
// like ("true", "0.1").
YAML::Node StringNode(const std::string& value);

}  // namespace gcushare::config_manager

#endif  // GCUSHARE_CONFIG_MANAGER_YAML_TEXT_H_
