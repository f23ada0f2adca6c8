// Kubernetes resource quantities as integers, for extended resources.
//
// Extended resources (enflame.com/gcu-memory, enflame.com/gcu-count) must be
// whole numbers. ParseIntegerQuantity accepts the serialised forms a pod
// spec can carry for a whole number: "4", "+4", "4k", "2Ki", "1e3", "1M",
// "1500m" is rejected (1.5), "2000m" is 2. Pure function.
#ifndef GCUSHARE_CONTRACT_QUANTITY_H_
#define GCUSHARE_CONTRACT_QUANTITY_H_

#include <cstdint>
#include <string_view>

#include "status/status.h"

namespace gcushare::contract {

// The value of `text` as a non-negative integer, or InvalidArgument naming
// the text and why (malformed, fractional, negative, too large).
StatusOr<uint64_t> ParseIntegerQuantity(std::string_view text);

}  // namespace gcushare::contract

#endif  // GCUSHARE_CONTRACT_QUANTITY_H_
