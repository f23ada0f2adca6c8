// Fuzzes the DRA driver's checkpoint decoding (dra-driver/checkpoint.h):
// the input is a checkpoint file. A file that decodes must encode and
// decode again to the same checkpoint.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "dra-driver/checkpoint.h"

namespace dra = gcushare::dra;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gcushare::StatusOr<dra::Checkpoint> decoded =
      dra::DecodeCheckpoint(text, "checkpoint.json");
  if (!decoded.ok()) return 0;
  gcushare::StatusOr<dra::Checkpoint> again =
      dra::DecodeCheckpoint(dra::EncodeCheckpoint(*decoded), "again");
  if (!again.ok() || !(*again == *decoded)) __builtin_trap();
  return 0;
}
