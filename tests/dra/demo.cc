// The DRA demo (scripts/demo.sh --dra): the real gcushare-dra-driver with
// the stand-in API server, kubelet and scheduler on a node of two fake
// 16 GiB cards, playing the vendor manual's scenario in DRA form: claims
// of 4, 8, 12 and 20 GiB. Prints the published slice, each pod's outcome
// and what each container sees, then stops the pods.
#include <cstdio>
#include <string>

#include "tests/dra/dra_cluster.h"

namespace gcushare::testing {
namespace {

int Run() {
  std::printf(
      "== starting: stand-in API server (resource.k8s.io/v1, "
      "Kubernetes 1.36 gates), gcushare-dra-driver, stand-in kubelet "
      "and scheduler\n");
  DraCluster cluster({.cards = 2});
  if (Status s = cluster.Start(); !s.ok()) {
    std::fprintf(stderr, "demo: %s\n", s.ToString().c_str());
    return 1;
  }
  std::printf("   driver log: %s/logs/gcushare-dra-driver.log\n",
              cluster.dir().c_str());
  auto slices = cluster.Slices();
  if (slices.ok()) {
    for (const auto& slice : *slices) {
      std::printf("== ResourceSlice %s (pool %s, generation %s)\n",
                  slice["metadata"]["name"].get<std::string>().c_str(),
                  slice["spec"]["pool"]["name"].get<std::string>().c_str(),
                  slice["spec"]["pool"]["generation"].dump().c_str());
      for (const auto& device : slice["spec"]["devices"]) {
        std::printf(
            "   %s memory %s shared=%s policy=%s\n",
            device["name"].get<std::string>().c_str(),
            device["capacity"]["memory"]["value"].dump().c_str(),
            device.value("allowMultipleAllocations", false) ? "yes" : "no",
            device["capacity"]["memory"]
                .value("requestPolicy", nlohmann::json())
                .dump()
                .c_str());
      }
    }
  }
  std::printf("== claims of 4, 8, 12 and 20 GiB (one pod each)\n");
  for (int gib : {4, 8, 12, 20}) {
    const std::string name = "share-" + std::to_string(gib);
    (void)cluster.CreateClaimTemplate(name, std::to_string(gib) + "Gi");
    (void)cluster.CreatePodWithTemplate("pod-" + std::to_string(gib), name);
  }
  auto outcomes = cluster.SchedulePending();
  if (!outcomes.ok()) {
    std::fprintf(stderr, "demo: %s\n", outcomes.status().ToString().c_str());
    return 1;
  }
  for (const auto& o : *outcomes) {
    if (o.bound) {
      std::printf("   %-12s bound to %s\n", o.pod.c_str(), o.node.c_str());
    } else {
      std::printf("   %-12s Pending (%s): %s\n", o.pod.c_str(),
                  o.reason.c_str(), o.message.c_str());
    }
  }
  std::printf(
      "== the kubelet starts the bound pods (NodePrepareResources, "
      "CDI applied as containerd does)\n");
  for (const auto& o : *outcomes) {
    if (!o.bound) continue;
    const std::string pod = o.pod.substr(o.pod.find('/') + 1);
    auto run = cluster.RunPod(pod);
    if (!run.ok()) {
      std::printf("   %s: %s\n", pod.c_str(), run.status().ToString().c_str());
      continue;
    }
    for (const auto& container : run->containers) {
      std::string nodes;
      for (const auto& d : container.view.devices) nodes += d.path + " ";
      std::printf("   %s/%s: devices %s\n", pod.c_str(), container.name.c_str(),
                  nodes.c_str());
      for (const char* env :
           {"ENFLAME_VISIBLE_DEVICES", "GCUSHARE_MEMORY_LIMIT_MB",
            "GCUSHARE_MEMORY_TOTAL_MB", "GCUSHARE_MEMORY_UNIT"}) {
        std::printf("      %s=%s\n", env,
                    container.view.Env(env).value_or("<unset>").c_str());
      }
    }
  }
  std::printf("== stopping the pods (NodeUnprepareResources)\n");
  for (const auto& o : *outcomes) {
    if (!o.bound) continue;
    const std::string pod = o.pod.substr(o.pod.find('/') + 1);
    Status s = cluster.StopPod(pod);
    std::printf("   %s: %s\n", pod.c_str(),
                s.ok() ? "stopped" : s.ToString().c_str());
  }
  std::printf("== done\n");
  return 0;
}

}  // namespace
}  // namespace gcushare::testing

int main() { return gcushare::testing::Run(); }
