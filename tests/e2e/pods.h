// Pod manifests for the end-to-end tests and the demo: what an operator
// would `kubectl apply`, as JSON for the API server.
//
// Pure functions; thread-safe.
#ifndef GCUSHARE_TESTS_E2E_PODS_H_
#define GCUSHARE_TESTS_E2E_PODS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gcushare::e2e {

struct ContainerRequest {
  std::string name;
  int64_t memory_units = 0;  // enflame.com/gcu-memory; 0: not requested.
  int64_t whole_cards = 0;   // enflame.com/gcu-count; 0: not requested.
};

// A pod in `ns` for the default scheduler whose containers ask for the
// given resources (as limits, like the vendor manual's examples).
nlohmann::json MakePod(const std::string& ns, const std::string& name,
                       const std::vector<ContainerRequest>& containers);

// One container "main" asking for `memory_units` of card memory.
nlohmann::json MakeSharedPod(const std::string& name, int64_t memory_units);

// One container "main" asking for `cards` whole cards.
nlohmann::json MakeWholeCardPod(const std::string& name, int64_t cards);

// The node the stand-in kubelet runs as: labelled for GCUShare, Ready, with
// CPU, memory and pod capacity (the GCU resources are published later by the
// stand-in kubelet and the device plugin).
nlohmann::json MakeNode(const std::string& name);

}  // namespace gcushare::e2e

#endif  // GCUSHARE_TESTS_E2E_PODS_H_
