// Card memory amounts as exact integers of millibytes (1/1000 byte), parsed
// from Kubernetes quantities.
//
// A claim's consumedCapacity.memory is a quantity the scheduler rounded to
// the slice's step. With a --memory-unit below 1 GiB the step is not a whole
// number of bytes (0.1 GiB = 107374182.4 bytes, serialised "107374182400m"),
// so whole bytes would round every share and 160 shares of 0.1 GiB would no
// longer fit a 16 GiB card. Millibytes keep every value the API server can
// write exact; a uint64 holds up to 16 PiB, far above any card.
//
// Pure functions; thread-safe; never throw.
#ifndef GCUSHARE_DRA_DRIVER_MEMORY_QUANTITY_H_
#define GCUSHARE_DRA_DRIVER_MEMORY_QUANTITY_H_

#include <cstdint>
#include <string_view>

#include "status/status.h"

namespace gcushare::dra {

inline constexpr uint64_t kMillibytesPerMib = uint64_t{1000} << 20;

// The quantity `text` in millibytes: "4Gi", "4294967296", "107374182400m",
// "0.5Gi", "1e9", "2k". InvalidArgument naming the text when it is not a
// quantity, is negative, finer than a millibyte or above 2^64-1 millibytes.
StatusOr<uint64_t> ParseMemoryMillibytes(std::string_view text);

// The card memory `mib` MiB in millibytes (mib below 2^44).
constexpr uint64_t MillibytesOfMib(uint64_t mib) {
  return mib * kMillibytesPerMib;
}

// Whole MiB in `millibytes`, rounded down (as MemoryUnit::MibOfUnits does:
// 0.4 GiB is 409 MiB).
constexpr uint64_t MibOfMillibytes(uint64_t millibytes) {
  return millibytes / kMillibytesPerMib;
}

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_MEMORY_QUANTITY_H_
