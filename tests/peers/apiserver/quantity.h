// Kubernetes resource quantities ("16Gi", "1.5", "100m", "1e3") read as
// milli-units, enough to compare and step the values the DRA validation
// checks (requestPolicy ranges).
//
// Values below a milli-unit round up, as Quantity.MilliValue does. Failure:
// nullopt for text the quantity grammar rejects or a value beyond int64
// milli-units (about 9.2e15 units, 8 PiB). Thread-safety: pure function.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_QUANTITY_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_QUANTITY_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace gcushare::apiserver {

std::optional<int64_t> ParseMilliQuantity(std::string_view text);

// Why the real decoder rejects `text` as a quantity (resource.ParseQuantity's
// error: "quantities must match the regular expression ..." or "unable to
// parse quantity's suffix"), or "" when it is one (any size).
std::string QuantitySyntaxError(std::string_view text);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_QUANTITY_H_
