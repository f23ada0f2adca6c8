#include "extender/testing/scale_cluster.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "extender/cache_feed.h"

namespace gcushare::extender::testing {
namespace {

struct Mix {
  int gcu_pods;
  int plain_pods;
};

// The spec makes exactly its GCU pods, whatever the mix (a spec of GCU
// pods only once made a third of them), each on its own card slot.
TEST(ScaleClusterTest, MakesTheSpecsGcuAndPlainPods) {
  for (const Mix& mix : {Mix{100, 200}, Mix{60, 0}, Mix{7, 3}, Mix{0, 5}}) {
    ScaleClusterSpec spec;
    spec.nodes = 10;
    spec.gcu_pods = mix.gcu_pods;
    spec.plain_pods = mix.plain_pods;
    std::mt19937 rng(spec.seed);
    int gcu = 0;
    std::set<std::string> uids;
    for (int i = 0; i < mix.gcu_pods + mix.plain_pods; ++i) {
      const nlohmann::json pod = ScalePod(spec, i, rng);
      gcu += PodKeptForm(pod).has_value() ? 1 : 0;
      uids.insert(pod["metadata"]["uid"].get<std::string>());
    }
    EXPECT_EQ(gcu, mix.gcu_pods) << mix.gcu_pods << "/" << mix.plain_pods;
    EXPECT_EQ(uids.size(), static_cast<size_t>(mix.gcu_pods + mix.plain_pods));
  }
}

}  // namespace
}  // namespace gcushare::extender::testing
