// Nodes and pods for extender tests, shaped like the API server's objects.
// Test-only; pure.
#ifndef GCUSHARE_EXTENDER_TESTING_OBJECTS_H_
#define GCUSHARE_EXTENDER_TESTING_OBJECTS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace gcushare::extender::testing {

// A sharing node with `cards` cards of `units` each at `unit`, all healthy
// unless listed in `unhealthy`.
nlohmann::json SharingNode(const std::string& name, int cards, uint64_t units,
                           const std::string& unit = "1",
                           const std::vector<uint32_t>& unhealthy = {});

// A node without the sharing label.
nlohmann::json PlainNode(const std::string& name);

struct ContainerSpec {
  std::string name;
  uint64_t memory = 0;  // enflame.com/gcu-memory limit.
  uint64_t cards = 0;   // enflame.com/gcu-count limit.
};

// A pending pod with the given containers.
nlohmann::json Pod(const std::string& ns, const std::string& name,
                   const std::string& uid,
                   const std::vector<ContainerSpec>& containers);

// A pod with one container "main" asking for `memory` units.
nlohmann::json MemoryPod(const std::string& name, uint64_t memory,
                         const std::string& uid = "");

// `pod` bound to `node` with the assignment annotations for `cards`.
nlohmann::json Assigned(nlohmann::json pod, const std::string& node,
                        const std::vector<uint32_t>& cards,
                        uint64_t card_units);

}  // namespace gcushare::extender::testing

#endif  // GCUSHARE_EXTENDER_TESTING_OBJECTS_H_
