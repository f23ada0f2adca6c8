#include "contract/memory_unit_flag.h"

#include "contract/memory_unit.h"

namespace gcushare::contract {

void AddMemoryUnitFlag(CLI::App& app, std::string* unit,
                       const std::string& help) {
  app.add_option("--memory-unit", *unit, help)
      ->check(CLI::Validator(
          [](const std::string& value) -> std::string {
            StatusOr<MemoryUnit> parsed = MemoryUnit::Parse(value);
            return parsed.ok() ? "" : parsed.status().message();
          },
          "", "UNIT"))
      ->capture_default_str();
}

}  // namespace gcushare::contract
