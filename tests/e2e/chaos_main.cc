// gcushare-chaos: issue 15's chaos runs at full size (docs/operations.md
// "What happens when..."): 200 sharing pods of mixed sizes created at once on
// one node of 8 cards; first the extender is SIGKILLed and relaunched at random
// points (3 times) and the API server killed once in the middle of a Binding,
// then, on a fresh cluster, the device plugin and the NRI plugin (twice each).
// Prints one line of counts per run; exits 1 when an invariant broke.
//
//   bazel run //tests/e2e:gcushare-chaos -- [--pods=200] [--seed=N]
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "daemon/flags.h"
#include "tests/e2e/chaos.h"

int main(int argc, char** argv) {
  CLI::App app{
      "Chaos runs of the whole GCUShare flow: pods created at once while "
      "pieces are SIGKILLed and relaunched; checks no over-commit, each "
      "container's own card, each Binding committed once, and /inspect "
      "against the pods."};
  gcushare::SetUpApp(app, "gcushare-chaos");
  int pods = 200;
  uint64_t seed = 0;
  int kills = 3;
  app.add_option("--pods", pods, "Sharing pods created at once.")
      ->check(CLI::Range(2, 100000))
      ->capture_default_str();
  app.add_option("--seed", seed,
                 "Seed of the random choices (sizes, kill points, the "
                 "API server's crash); 0: a fresh one, printed.")
      ->capture_default_str();
  app.add_option("--kills", kills,
                 "SIGKILLs of the extender in the first run (the plugins "
                 "get 2 each in the second).")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  if (auto code = gcushare::ParseFlags(app, argc, argv)) return *code;
  if (seed == 0) seed = gcushare::e2e::ChaosSeedFromEnvironment();

  struct Plan {
    const char* what;
    std::vector<gcushare::e2e::Piece> victims;
    int kills;
    bool crash_apiserver;
  };
  const Plan plans[] = {
      {"extender killed, API server killed mid-Binding",
       {gcushare::e2e::Piece::kExtender},
       kills,
       true},
      {"device plugin and NRI plugin killed",
       {gcushare::e2e::Piece::kDevicePlugin, gcushare::e2e::Piece::kNriPlugin},
       2,
       false},
  };
  int failures = 0;
  for (const Plan& plan : plans) {
    gcushare::e2e::ChaosOptions options;
    options.pods = pods;
    options.seed = seed;
    options.victims = plan.victims;
    options.kills_per_piece = plan.kills;
    options.crash_apiserver = plan.crash_apiserver;
    std::cout << "== " << plan.what << " (seed " << seed << ")" << std::endl;
    auto report = gcushare::e2e::RunChaos(options);
    if (!report.ok()) {
      std::cout << "FAILED: " << report.status() << std::endl;
      ++failures;
      continue;
    }
    std::cout << report->Summary() << std::endl;
  }
  return failures == 0 ? 0 : 1;
}
