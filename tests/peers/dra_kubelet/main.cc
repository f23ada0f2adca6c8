// The stand-in kubelet's DRA side as a program
// (//tests/peers/dra_kubelet:dra-kubelet), for demos and for trying
// gcushare-dra-driver by hand:
//
//   dra-kubelet --registry-dir=/tmp/k/plugins_registry --node-name=n1
//       [--cdi-dir=/tmp/k/cdi ...] [--apiserver=http://127.0.0.1:PORT]
//
// It discovers and registers DRA plugins (stand_in_dra_kubelet.h) and prints
// one line per event: "registered <driver> endpoint <socket> service
// <service>", "refused <socket>: <error>", "connected <driver> <endpoint>",
// "disconnected <driver> <endpoint>", "wiped <field selector>". With
// --apiserver it also wipes the node's ResourceSlices as the kubelet does,
// and for each pod bound to --node-name that uses ResourceClaims it calls
// NodePrepareResources and applies the CDI devices per container ("started
// <ns>/<pod> <container> cdi=<id>... <NAME>=<VALUE>..." for the variables
// the CDI devices set, or "prepare failed <ns>/<pod>: <error>", retried on
// the next poll); once such a pod finishes or is gone it calls
// NodeUnprepareResources ("stopped <ns>/<pod>"). SIGTERM stops it.
#include <spdlog/spdlog.h>

#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "base/clock.h"
#include "daemon/daemon.h"
#include "kube/config.h"
#include "kube/curl_kube_client.h"
#include "kube/json_fields.h"
#include "tests/peers/dra_kubelet/stand_in_dra_kubelet.h"
#include "tests/peers/peer_syscalls.h"

namespace {

using gcushare::peers::dra_kubelet::DraKubeletView;
using gcushare::peers::dra_kubelet::StandInDraKubelet;
using nlohmann::json;

void Say(const std::string& line) { std::cout << line << std::endl; }

// Prints what changed in the view since the last call.
class Reporter {
 public:
  void Report(const DraKubeletView& view) {
    for (; registrations_ < view.registrations.size(); ++registrations_) {
      const auto& r = view.registrations[registrations_];
      if (r.registered) {
        Say("registered " + r.driver_name + " endpoint " + r.endpoint +
            " service " + r.chosen_service);
      } else {
        Say("refused " + r.socket_path + ": " + r.error);
      }
    }
    std::map<std::string, bool> now;
    for (const auto& p : view.plugins) {
      std::string key = p.driver_name + " " + p.endpoint;
      now[key] = p.connected;
      auto before = connected_.find(key);
      bool was = before != connected_.end() && before->second;
      if (p.connected != was) {
        Say(std::string(p.connected ? "connected " : "disconnected ") + key);
      }
    }
    for (const auto& [key, was] : connected_) {
      if (was && !now.count(key)) Say("disconnected " + key);
    }
    connected_ = std::move(now);
    for (; wipes_ < view.wipes.size(); ++wipes_) {
      Say("wiped " + view.wipes[wipes_]);
    }
  }

 private:
  size_t registrations_ = 0;
  size_t wipes_ = 0;
  std::map<std::string, bool> connected_;
};

bool UsesClaims(const json& pod) {
  const json* spec = pod.contains("spec") ? &pod["spec"] : nullptr;
  bool claims = spec != nullptr && spec->contains("resourceClaims") &&
                (*spec)["resourceClaims"].is_array() &&
                !(*spec)["resourceClaims"].empty();
  return claims || !gcushare::kube::StringAt(
                        pod, {"status", "extendedResourceClaimStatus",
                              "resourceClaimName"})
                        .empty();
}

// Pods this kubelet started: uid -> the pod as last seen.
using Started = std::map<std::string, json>;

void SyncPods(StandInDraKubelet& kubelet, gcushare::kube::KubeClient& client,
              const std::string& node, Started& started) {
  gcushare::kube::ListOptions options;
  options.field_selector = "spec.nodeName=" + node;
  auto list = client.List(gcushare::kube::Resource::Pods(), "", options);
  if (!list.ok()) {
    spdlog::warn("listing pods: {}", list.status().message());
    return;
  }
  std::map<std::string, const json*> active;
  for (const json& pod : list->items) {
    const std::string phase =
        gcushare::kube::StringAt(pod, {"status", "phase"});
    bool deleting =
        !gcushare::kube::StringAt(pod, {"metadata", "deletionTimestamp"})
             .empty();
    if (phase == "Succeeded" || phase == "Failed" || deleting) continue;
    if (!UsesClaims(pod)) continue;
    active[gcushare::kube::StringAt(pod, {"metadata", "uid"})] = &pod;
  }
  for (auto it = started.begin(); it != started.end();) {
    if (active.count(it->first)) {
      ++it;
      continue;
    }
    std::string key = gcushare::kube::NamespaceOf(it->second) + "/" +
                      gcushare::kube::NameOf(it->second);
    gcushare::Status stopped = kubelet.StopPod(it->second);
    if (!stopped.ok()) {
      Say("unprepare failed " + key + ": " + stopped.message());
      ++it;  // Retried on the next poll.
      continue;
    }
    Say("stopped " + key);
    it = started.erase(it);
  }
  for (const auto& [uid, pod] : active) {
    if (started.count(uid)) continue;
    std::string key =
        gcushare::kube::NamespaceOf(*pod) + "/" + gcushare::kube::NameOf(*pod);
    auto run = kubelet.RunPod(*pod);
    if (!run.ok()) {
      Say("prepare failed " + key + ": " + run.status().message());
      continue;
    }
    started[uid] = *pod;
    for (const auto& container : run->containers) {
      std::string line = "started " + key + " " + container.name;
      for (const std::string& id : container.cdi_device_ids) {
        line += " cdi=" + id;
      }
      for (const std::string& env : container.view.env) line += " " + env;
      for (const auto& device : container.view.devices) {
        line += " device=" + device.path;
      }
      Say(line);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  gcushare::Daemon daemon(
      "gcushare-stand-in-dra-kubelet",
      "Stand-in kubelet, DRA side, for tests and demos: registers DRA "
      "plugins, prepares the ResourceClaims of pods bound to its node, "
      "applies their CDI devices, watches device health and wipes "
      "ResourceSlices as the kubelet does.");
  std::string registry_dir, apiserver, node;
  std::vector<std::string> cdi_dirs;
  double poll_seconds = 0.5;
  bool no_health = false;
  daemon.app()
      .add_option("--registry-dir", registry_dir,
                  "Plugin registry directory (the kubelet's plugins_registry).")
      ->required()
      ->type_name("DIR");
  daemon.app().add_option("--node-name", node, "This node's name.")->required();
  daemon.app().add_option(
      "--cdi-dir", cdi_dirs,
      "CDI spec directory, lowest priority first (repeatable).");
  daemon.app().add_option(
      "--apiserver", apiserver,
      "API server URL (http://host:port): enables pods and slice wiping.");
  daemon.app()
      .add_option("--poll-interval", poll_seconds,
                  "Seconds between pod listings (with --apiserver).")
      ->capture_default_str();
  daemon.app().add_flag("--no-resource-health", no_health,
                        "Turn the ResourceHealthStatus gate off.");
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (auto s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);

  gcushare::base::RealClock clock;
  std::unique_ptr<gcushare::kube::CurlKubeClient> client;
  if (!apiserver.empty()) {
    gcushare::kube::ClientConfig config;
    config.server = apiserver;
    gcushare::kube::KubeClientOptions options;
    options.clock = &clock;
    auto created = gcushare::kube::CurlKubeClient::Create(config, options);
    if (!created.ok()) return daemon.Fail(created.status());
    client = std::move(*created);
  }
  gcushare::peers::dra_kubelet::DraKubeletOptions options;
  options.node_name = node;
  options.registry_dir = registry_dir;
  options.cdi_dirs = cdi_dirs;
  options.clock = &clock;
  options.kube = client.get();
  options.resource_health = !no_health;
  StandInDraKubelet kubelet(options);
  if (auto s = daemon.Confine(gcushare::peers::PeerSyscalls()); !s.ok()) {
    return daemon.Fail(s);
  }
  if (auto s = kubelet.Start(); !s.ok()) return daemon.Fail(s);
  Say("watching " + registry_dir);

  Reporter reporter;
  Started started;
  do {
    reporter.Report(kubelet.View());
    if (client) SyncPods(kubelet, *client, node, started);
  } while (!daemon.shutdown().WaitFor(
      std::chrono::milliseconds(static_cast<int64_t>(poll_seconds * 1000))));
  kubelet.Stop();
  return daemon.Finish();
}
