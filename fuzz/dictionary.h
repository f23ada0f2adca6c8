// libFuzzer dictionary files (the -dict= format): one token a line, as
// `"value"` or `name="value"`, with \\, \" and \xNN escapes; blank lines
// and lines starting with # are skipped.

#ifndef GCUSHARE_FUZZ_DICTIONARY_H_
#define GCUSHARE_FUZZ_DICTIONARY_H_

#include <string>
#include <string_view>
#include <vector>

#include "status/status.h"

namespace gcushare::fuzz {

// The tokens of `text`; InvalidArgument naming the 1-based line of the
// first malformed entry. Pure.
StatusOr<std::vector<std::string>> ParseDictionary(std::string_view text);

}  // namespace gcushare::fuzz

#endif  // GCUSHARE_FUZZ_DICTIONARY_H_
