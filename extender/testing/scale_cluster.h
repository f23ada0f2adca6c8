// Test support: fills a stand-in API server's store with a cluster of the
// size the extender must handle (issue 17): sharing nodes with realistic
// status, pods that ask for GCU memory (bound, assigned, running) and many
// more that ask for none, shaped like what a real API server returns
// (labels, owner references, several containers, status). Objects go into
// the store directly (no HTTP, no admission): filling 150,000 pods over
// HTTP would dominate the benchmark's run time.
//
// Not for production code. Deterministic for a given seed.
#ifndef GCUSHARE_EXTENDER_TESTING_SCALE_CLUSTER_H_
#define GCUSHARE_EXTENDER_TESTING_SCALE_CLUSTER_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "status/status.h"
#include "tests/peers/apiserver/object_store.h"

namespace gcushare::extender::testing {

struct ScaleClusterSpec {
  int nodes = 5000;
  int cards_per_node = 8;
  uint64_t units_per_card = 16;
  int gcu_pods = 50000;     // Bound to nodes, assigned, Running.
  int plain_pods = 100000;  // Ask for no GCU resource.
  int namespaces = 50;
  uint32_t seed = 42;
};

// "node-<i>".
std::string ScaleNodeName(int i);

// A sharing node with the status a kubelet publishes (conditions, images,
// node info, addresses), as large as a real one.
nlohmann::json ScaleNode(const ScaleClusterSpec& spec, int i);

// Adds the fields a real pod carries besides its GCU request (labels,
// owner reference, a sidecar, env, volumes, status) to `pod`.
void AddRealisticPodFields(nlohmann::json& pod, int i);

// Pod `i` of the spec (`rng` draws its request and card): spec.gcu_pods of
// the spec.gcu_pods + spec.plain_pods pods, spread evenly (every third
// with the defaults), ask for GCU memory, bound and assigned; the others
// ask for none. All carry AddRealisticPodFields().
nlohmann::json ScalePod(const ScaleClusterSpec& spec, int i, std::mt19937& rng);

// Creates the spec's nodes and pods in `store`. Returns the first error.
Status FillScaleCluster(const ScaleClusterSpec& spec,
                        apiserver::ObjectStore& store);

}  // namespace gcushare::extender::testing

#endif  // GCUSHARE_EXTENDER_TESTING_SCALE_CLUSTER_H_
