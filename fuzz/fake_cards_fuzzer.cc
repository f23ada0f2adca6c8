// Fuzzes the fake cards YAML file (efml/fake_card_source.h).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "efml/fake_card_source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view yaml(reinterpret_cast<const char*>(data), size);
  (void)gcushare::efml::ParseFakeCards(yaml, "fuzz.yaml");
  return 0;
}
