// Fuzzes the bounded JSON and YAML depth checks (json/bounded_parse.h)
// that guard every parser of outside input: what ParseJson accepts is
// never nested deeper than the limit.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "json/bounded_parse.h"

namespace json = gcushare::json;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gcushare::StatusOr<nlohmann::json> parsed = json::ParseJson(text, "fuzz");
  if (parsed.ok() && json::JsonNestingDepth(text, json::kMaxJsonDepth + 1) >
                         json::kMaxJsonDepth) {
    __builtin_trap();
  }
  (void)json::CheckYamlDepth(text, "fuzz");
  return 0;
}
