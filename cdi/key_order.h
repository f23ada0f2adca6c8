// The order in which spec keys are written: the order of the CDI schema
// (cdiVersion, kind, annotations, devices, containerEdits; name before
// containerEdits; path before type before major/minor), so that files read
// naturally. Keys the schema does not know come last, alphabetically.
//
// Pure functions; thread-safe; never throw.
#ifndef GCUSHARE_CDI_KEY_ORDER_H_
#define GCUSHARE_CDI_KEY_ORDER_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gcushare::cdi {

// The keys of `object` in writing order; empty when it is not an object.
std::vector<std::string> OrderedKeys(const nlohmann::json& object);

// A copy of `tree` whose objects keep their keys in writing order.
nlohmann::ordered_json InWritingOrder(const nlohmann::json& tree);

}  // namespace gcushare::cdi

#endif  // GCUSHARE_CDI_KEY_ORDER_H_
