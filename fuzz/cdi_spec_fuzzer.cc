// Fuzzes CDI spec files (YAML or JSON) as the CDI tool and the NRI plugin
// read them: parse, validate, and print back as YAML.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cdi/parser.h"
#include "cdi/validator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // Odd first byte: read as a .json file; else as .yaml.
  const std::string_view name =
      size > 0 && data[0] % 2 == 1 ? "fuzz.json" : "fuzz.yaml";
  gcushare::StatusOr<nlohmann::json> spec =
      gcushare::cdi::ParseSpecText(text, name);
  if (!spec.ok()) return 0;
  (void)gcushare::cdi::ValidateSpec(*spec);
  (void)gcushare::cdi::ToYaml(*spec);
  return 0;
}
