// How a plain (unquoted) YAML scalar is typed, and which strings must be
// quoted to stay strings.
//
// Pure functions; thread-safe; never throw.
#ifndef GCUSHARE_CDI_YAML_SCALAR_H_
#define GCUSHARE_CDI_YAML_SCALAR_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "status/status.h"

namespace gcushare::cdi {

// Resolves a plain scalar by the YAML 1.2 core schema: null (empty, ~, null,
// Null, NULL), booleans (true/True/TRUE, false/...), integers (decimal with
// an optional sign, 0o octal, 0x hex), floats (1.5, -2e3, .inf, .nan, ...);
// anything else is a string. An integer too large for 64 bits is
// InvalidArgument.
StatusOr<nlohmann::json> ResolvePlainScalar(std::string_view text);

// Resolves a scalar with an explicit core tag (str, int, float, bool, null;
// short "!!int" or long "tag:yaml.org,2002:int"). InvalidArgument when the
// text does not fit the tag or the tag is not one of these.
StatusOr<nlohmann::json> ResolveTaggedScalar(std::string_view tag,
                                             std::string_view text);

// True when `text`, written as a plain scalar, might not be read back as
// this string: empty strings, strings that do not start with a letter or
// '/' (numbers, ".inf", "-", "0x1f", "1:20"), and the words that YAML 1.2 or
// YAML 1.1 read as null or booleans (null, true, yes, on, y, ...).
bool NeedsQuoting(std::string_view text);

}  // namespace gcushare::cdi

#endif  // GCUSHARE_CDI_YAML_SCALAR_H_
