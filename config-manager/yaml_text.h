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

// EmitYaml for a file the config manager is about to write: also checks
// that ParseYamlMap's guards (json::CheckYamlDepth) accept the text, so
// nothing is written that the config manager could not read back. Block
// style may count deeper than the input did: the guard counts indentation
// columns and every '[' or '{' in a plain scalar, and an input's flow
// collections come out as indented blocks (found by
// //fuzz:scheduler_config_fuzzer: a key of some 250 brackets, written as
// an indented "? key", came out 3 levels deeper). Failure:
// InvalidArgument "<what> as edited: YAML nested deeper than 256 levels
// (block style); not written, it would not read back".
StatusOr<std::string> EmitYamlToWrite(const YAML::Node& node,
                                      std::string_view what);

// A new scalar node that EmitYaml writes as a string, whatever it looks
// like ("true", "0.1").
YAML::Node StringNode(const std::string& value);

}  // namespace gcushare::config_manager

#endif  // GCUSHARE_CONFIG_MANAGER_YAML_TEXT_H_
