// The stand-in kubelet as a program (//tests/peers/kubelet), for demos and
// for trying the device plugin by hand:
//
//   kubelet --dir=/tmp/dp [--apiserver=http://127.0.0.1:PORT --node-name=n1]
//
// It serves Registration on <dir>/kubelet.sock and prints what it sees, one
// line each: "registered <resource> endpoint <socket>", "devices <resource>
// <n> healthy <h>" on every ListAndWatch message, and with --apiserver,
// "allocated <ns>/<pod> <container> ..." after calling Allocate (one
// container per call, init containers first, like kubelet) for each Pending
// pod bound to --node-name that asks for enflame.com/gcu-memory (their
// device IDs are free again once the pod is gone or finished); it also
// patches the node's status capacity and allocatable with the device counts
// ("node capacity {...}"), as kubelet does. SIGHUP
// simulates a kubelet restart (sockets deleted, kubelet.sock recreated);
// SIGTERM stops it.
#include <signal.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <iostream>
#include <map>
#include <set>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "contract/names.h"
#include "contract/pod_request.h"
#include "daemon/daemon.h"
#include "kube/config.h"
#include "kube/curl_kube_client.h"
#include "kube/json_fields.h"
#include "tests/peers/kubelet/stand_in_kubelet.h"
#include "tests/peers/peer_syscalls.h"

namespace {

using gcushare::peers::kubelet::KubeletView;
using gcushare::peers::kubelet::StandInKubelet;

gcushare::base::Mutex print_mu;
void Say(const std::string& line) {
  gcushare::base::MutexLock lock(print_mu);
  std::cout << line << std::endl;
}

// Prints registrations and device-list changes as they happen.
void Report(StandInKubelet& kubelet, std::atomic<bool>& done) {
  size_t registrations = 0;
  std::map<std::string, uint64_t> lists;
  while (!done) {
    kubelet.WaitUntil(
        [&](const KubeletView& view) {
          if (view.registrations.size() != registrations) return true;
          for (const auto& [name, resource] : view.resources) {
            if (lists[name] != resource.lists) return true;
          }
          return false;
        },
        std::chrono::milliseconds(200));
    KubeletView view = kubelet.View();
    for (; registrations < view.registrations.size(); ++registrations) {
      const auto& r = view.registrations[registrations];
      Say("registered " + r.resource_name() + " endpoint " + r.endpoint());
    }
    for (const auto& [name, resource] : view.resources) {
      if (lists[name] == resource.lists) continue;
      lists[name] = resource.lists;
      Say("devices " + name + " " + std::to_string(resource.devices.size()) +
          " healthy " + std::to_string(resource.Healthy()));
    }
  }
}

// Pods this kubelet has admitted: uid -> the device IDs it allocated them.
using Admitted = std::map<std::string, std::vector<std::string>>;

void AllocatePods(StandInKubelet& kubelet, gcushare::kube::KubeClient& client,
                  const std::string& node, Admitted& admitted) {
  const std::string resource(gcushare::contract::kResourceMemory);
  gcushare::kube::ListOptions options;
  options.field_selector = "spec.nodeName=" + node;
  auto list = client.List(gcushare::kube::Resource::Pods(), "", options);
  if (!list.ok()) {
    spdlog::warn("listing pods: {}", list.status().message());
    return;
  }
  // Like kubelet's device manager: the devices of pods that are gone or
  // finished are free again.
  std::set<std::string> active;
  for (const nlohmann::json& pod : list->items) {
    const std::string phase =
        gcushare::kube::StringAt(pod, {"status", "phase"});
    if (phase != "Succeeded" && phase != "Failed") {
      active.insert(gcushare::kube::StringAt(pod, {"metadata", "uid"}));
    }
  }
  for (auto it = admitted.begin(); it != admitted.end();) {
    if (active.count(it->first)) {
      ++it;
      continue;
    }
    kubelet.Release(resource, it->second);
    it = admitted.erase(it);
  }
  // Admission waits until the plugin's first device list arrived after a
  // (re)registration; before that every request would look unsatisfiable.
  const KubeletView view = kubelet.View();
  auto known = view.resources.find(resource);
  if (known == view.resources.end() || known->second.lists == 0) return;
  for (const nlohmann::json& pod : list->items) {
    const std::string uid = gcushare::kube::StringAt(pod, {"metadata", "uid"});
    if (admitted.count(uid) || !active.count(uid)) continue;
    auto request = gcushare::contract::ComputePodRequest(pod);
    if (!request.ok() || request->memory_units == 0) continue;
    // kubelet remembers its allocations in a checkpoint file across
    // restarts; here the device plugin's "assigned" annotation stands in for
    // it: such a pod gets its devices back without an Allocate call, so a
    // restarted stand-in never allocates a pod twice nor counts its devices
    // free.
    if (gcushare::kube::StringAt(pod, {"metadata", "annotations",
                                       gcushare::contract::kPodAssigned}) ==
        "true") {
      auto restored = kubelet.Restore(resource, request->memory_units);
      if (!restored.ok()) {
        spdlog::warn("restoring {}: {}", gcushare::kube::NameOf(pod),
                     restored.status().message());
      }
      admitted[uid] = restored.ok() ? *restored : std::vector<std::string>{};
      continue;
    }
    // New pods only: admission happens once, while the pod is Pending.
    if (gcushare::kube::StringAt(pod, {"status", "phase"}) != "Pending") {
      continue;
    }
    std::vector<std::string>& ids = admitted[uid];
    const std::string key =
        gcushare::kube::NamespaceOf(pod) + "/" + gcushare::kube::NameOf(pod);
    for (const auto& container : request->containers) {
      if (container.memory_units == 0) continue;
      auto result = kubelet.AllocateContainer(resource, container.memory_units);
      if (!result.ok()) {
        Say("allocate failed " + key + " " + container.name + ": " +
            result.status().ToString());
        continue;
      }
      ids.insert(ids.end(), result->device_ids.begin(),
                 result->device_ids.end());
      std::string line = "allocated " + key + " " + container.name;
      for (const auto& cdi : result->response.cdi_devices()) {
        line += " cdi=" + cdi.name();
      }
      for (const auto& [k, v] : result->response.envs()) {
        line += " ";
        line += k;
        line += "=";
        line += v;
      }
      Say(line);
    }
  }
}

// Like kubelet's node status sync: capacity = every device of a registered
// resource, allocatable = the healthy ones. Patched when the lists change.
void PublishCapacity(StandInKubelet& kubelet,
                     gcushare::kube::KubeClient& client,
                     const std::string& node, std::string& published) {
  KubeletView view = kubelet.View();
  nlohmann::json capacity = nlohmann::json::object();
  nlohmann::json allocatable = nlohmann::json::object();
  for (const auto& [name, resource] : view.resources) {
    capacity[name] = std::to_string(resource.devices.size());
    allocatable[name] = std::to_string(resource.Healthy());
  }
  nlohmann::json patch = {
      {"status", {{"capacity", capacity}, {"allocatable", allocatable}}}};
  if (capacity.empty() || patch.dump() == published) return;
  auto patched =
      client.Patch(gcushare::kube::Resource::Nodes(), "", node,
                   gcushare::kube::PatchType::kMerge, patch, "status");
  if (!patched.ok()) {
    spdlog::warn("patching node {} status: {}", node,
                 patched.status().message());
    return;
  }
  published = patch.dump();
  Say("node capacity " + capacity.dump());
}

}  // namespace

int main(int argc, char** argv) {
  // SIGHUP is taken by a thread of ours: block it before any thread starts.
  sigset_t hup;
  sigemptyset(&hup);
  sigaddset(&hup, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &hup, nullptr);

  gcushare::Daemon daemon(
      "gcushare-stand-in-kubelet",
      "Stand-in kubelet for tests and demos: serves the device plugin "
      "Registration service, watches the plugins' devices, and allocates "
      "for pods bound to its node.");
  std::string dir, apiserver, node;
  double poll_seconds = 0.5;
  daemon.app()
      .add_option("--dir", dir,
                  "Device plugin directory: kubelet.sock is served there.")
      ->required()
      ->type_name("DIR");
  daemon.app().add_option(
      "--apiserver", apiserver,
      "API server URL (http://host:port); with it, pods bound to "
      "--node-name that ask for enflame.com/gcu-memory get Allocate calls.");
  daemon.app().add_option("--node-name", node,
                          "This node's name (with --apiserver).");
  daemon.app()
      .add_option("--poll-interval", poll_seconds,
                  "Seconds between pod listings (with --apiserver).")
      ->capture_default_str();
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (auto s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);

  StandInKubelet kubelet(dir);
  if (auto s = kubelet.Start(); !s.ok()) return daemon.Fail(s);
  std::unique_ptr<gcushare::kube::CurlKubeClient> client;
  gcushare::base::RealClock clock;
  if (!apiserver.empty()) {
    gcushare::kube::ClientConfig config;
    config.server = apiserver;
    gcushare::kube::KubeClientOptions options;
    options.clock = &clock;
    auto created = gcushare::kube::CurlKubeClient::Create(config, options);
    if (!created.ok()) return daemon.Fail(created.status());
    client = std::move(*created);
  }
  if (auto s = daemon.Confine(gcushare::peers::PeerSyscalls()); !s.ok()) {
    return daemon.Fail(s);
  }
  Say("listening on " + kubelet.socket_path());

  std::atomic<bool> done{false};
  std::thread reporter([&] { Report(kubelet, done); });
  std::thread restarter([&] {
    timespec tick{0, 200 * 1000 * 1000};
    while (!done) {
      if (sigtimedwait(&hup, nullptr, &tick) == SIGHUP) {
        auto s = kubelet.Restart();
        Say(s.ok() ? "restarted" : "restart failed: " + s.ToString());
      }
    }
  });
  Admitted admitted;
  std::string published;  // The last node status patch that was accepted.
  while (!daemon.shutdown().WaitFor(
      std::chrono::milliseconds(static_cast<int64_t>(poll_seconds * 1000)))) {
    if (client) {
      PublishCapacity(kubelet, *client, node, published);
      AllocatePods(kubelet, *client, node, admitted);
    }
  }
  done = true;
  reporter.join();
  restarter.join();
  kubelet.Stop();
  return daemon.Finish();
}
