// The CEL subset the stand-in scheduler evaluates for DeviceClass and
// ResourceClaim selectors (selectors[].cel.expression), over the variable
// `device` of the DRA CEL environment:
//   device.driver <op> "string"
//   device.allowMultipleAllocations == true|false
//   device.attributes["<domain>"].<name> <op> <string|int|bool literal>
//   device.capacity["<domain>"].<name>.compareTo(quantity("16Gi")) <op> <int>
// joined by && and grouped by parentheses; <op> is ==, !=, <, <=, >, >=.
// Anything else does not compile: Compile() fails naming the expression
// (the scheduler reports it as a "CEL compile error").
//
// Evaluation follows CEL: an attribute or capacity the device lacks is the
// runtime error "no such key: <name>"; == and != across types are false and
// true, ordering across types is "no such overload"; && is false when any
// side is false, even if another side fails, and otherwise fails with the
// first error. An unqualified attribute or capacity name in the slice
// belongs to the driver's domain, so device.attributes["gcu.enflame.com"].uuid
// reads "uuid" of a gcu.enflame.com device (or "gcu.enflame.com/uuid").
//
// A compiled selector is immutable; Matches() is thread-safe.
#ifndef GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_DEVICE_SELECTOR_H_
#define GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_DEVICE_SELECTOR_H_

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::dra_scheduler {

// A device as the selector sees it; the JSON is the slice's device entry
// (attributes and capacity maps), borrowed.
struct CelDevice {
  std::string driver;
  const nlohmann::json* device = nullptr;
};

class DeviceSelector {
 public:
  // InvalidArgument with the compile error for anything outside the subset.
  static StatusOr<DeviceSelector> Compile(std::string_view expression);

  // The CEL result, or InvalidArgument with the runtime error.
  StatusOr<bool> Matches(const CelDevice& device) const;

  const std::string& expression() const { return expression_; }

  struct Node;

 private:
  DeviceSelector(std::string expression, std::shared_ptr<const Node> root)
      : expression_(std::move(expression)), root_(std::move(root)) {}

  std::string expression_;
  std::shared_ptr<const Node> root_;
};

}  // namespace gcushare::dra_scheduler

#endif  // GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_DEVICE_SELECTOR_H_
