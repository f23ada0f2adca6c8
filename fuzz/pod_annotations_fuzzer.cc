// Fuzzes the pod annotations contract: the input is a pod's
// metadata.annotations as JSON (gcu-device-id card lists,
// gcu-container-devices, memory and time fields); decoded, then each
// container's cards looked up, then re-encoded and decoded again, which
// must give the same assignment.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "contract/annotations.h"
#include "json/bounded_parse.h"

namespace contract = gcushare::contract;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gcushare::StatusOr<nlohmann::json> annotations =
      gcushare::json::ParseJson(text, "annotations");
  if (!annotations.ok()) return 0;
  gcushare::StatusOr<std::optional<contract::CardAssignment>> decoded =
      contract::DecodeAssignment(*annotations);
  if (!decoded.ok() || !decoded->has_value()) return 0;
  const contract::CardAssignment& assignment = **decoded;
  for (const auto& [container, cards] : assignment.container_cards) {
    (void)contract::CardsForContainer(assignment, container);
  }
  (void)contract::CardsForContainer(assignment, "not-listed");

  nlohmann::json again = nlohmann::json::object();
  for (const auto& [key, value] : contract::EncodeAssignment(assignment)) {
    again[key] = value;
  }
  gcushare::StatusOr<std::optional<contract::CardAssignment>> round =
      contract::DecodeAssignment(again);
  if (!round.ok() || !round->has_value() || !(**round == assignment)) {
    __builtin_trap();
  }
  return 0;
}
