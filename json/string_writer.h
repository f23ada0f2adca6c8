// AppendJsonString: writes a string as a JSON string literal, byte for byte
// as nlohmann::json's dump() does (ensure_ascii off: '"', '\\' and control
// characters escaped, \b \f \n \r \t by name, the others as \u00xx; every
// other byte, UTF-8 included, copied). For encoders that write their
// answer straight into one buffer instead of building a DOM to dump.
//
// Pure; thread-compatible. Unlike dump() it does not check UTF-8: callers
// pass text that came from parsed JSON (already valid) or their own.
#ifndef GCUSHARE_JSON_STRING_WRITER_H_
#define GCUSHARE_JSON_STRING_WRITER_H_

#include <string>
#include <string_view>

namespace gcushare::json {

// Appends `text` to `out` as a quoted, escaped JSON string.
void AppendJsonString(std::string_view text, std::string& out);

}  // namespace gcushare::json

#endif  // GCUSHARE_JSON_STRING_WRITER_H_
