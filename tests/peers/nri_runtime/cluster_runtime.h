// The stand-in NRI runtime's cluster mode: containerd and the part of
// kubelet that starts containers, for pods that come from the (stand-in)
// Kubernetes API server instead of being fabricated.
//
// Run() loops until Stop(), every poll interval:
//   1. Lists the pods bound to the node (fieldSelector spec.nodeName=<node>).
//      A pod already Running that the runtime does not know is adopted as
//      created (sandbox and containers running): this is how state is
//      rebuilt after a runtime restart, and such pods are never created
//      again. Pods that disappear from the list are forgotten.
//   2. With a plugin connected, creates every pod that is ready: Pending,
//      not being deleted, and either annotated enflame.com/gcu-device-assigned
//      "true" (the device plugin's mark after Allocate) or asking for no
//      enflame.com/gcu-memory (whole-card pods and pods without GCUs never
//      pass through Allocate). RUN_POD_SANDBOX once per pod, then
//      CreateContainer (plus the post-create and start events the plugin
//      subscribed to) for each app container in spec order, applying the
//      plugin's adjustment. Output, one line each:
//        {"pod":"ns/name","container":"c","spec":{...}}   (apply.h's spec)
//        {"pod":"ns/name","container":"c","error":"..."}  (each distinct
//          error once; the container is retried on the next poll)
//      When all app containers exist, the pod's status subresource gets a
//      merge patch {"status":{"phase":"Running",...}} and the line
//        running ns/name
//      (a failed patch is retried on the next poll).
//   3. Without a plugin (after the first successful listing), waits up to
//      one poll interval for one to connect; registration, Configure and
//      Synchronize (the sandboxes and containers created or adopted so far)
//      print
//        plugin <name> (index <NN>) registered, events 0x<mask>
//        synchronized <P> pods <C> containers
//      When the plugin's connection ends (killed, restarted, timed out) the
//      line `plugin <name> disconnected` is printed and the next plugin is
//      accepted; pods wait meanwhile, they do not fail.
// The API server being unreachable is logged once per outage (and its
// return once); polling goes on.
//
// Ownership: borrows the NriRuntime (listening socket), the KubeClient and
// the clock, which must outlive it; owns the plugin connection.
// Thread-safety: Run() on one thread; Stop() from any thread. The output
// callback runs on Run()'s thread.
#ifndef GCUSHARE_TESTS_PEERS_NRI_RUNTIME_CLUSTER_RUNTIME_H_
#define GCUSHARE_TESTS_PEERS_NRI_RUNTIME_CLUSTER_RUNTIME_H_

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "kube/kube_client.h"
#include "tests/peers/nri_runtime/runtime.h"

namespace gcushare::nri_runtime {

struct ClusterOptions {
  std::string node_name;
  std::chrono::milliseconds poll_interval{200};
};

class ClusterRuntime {
 public:
  using Output = std::function<void(const std::string& line)>;

  ClusterRuntime(NriRuntime* runtime, kube::KubeClient* client,
                 base::Clock* clock, ClusterOptions options, Output output);
  ~ClusterRuntime();
  ClusterRuntime(const ClusterRuntime&) = delete;
  ClusterRuntime& operator=(const ClusterRuntime&) = delete;

  // Polls and serves plugins until Stop(); closes the plugin connection
  // before returning.
  void Run();
  void Stop() EXCLUDES(mu_);

 private:
  struct PodState {
    std::string key;  // ns/name
    api::PodSandbox sandbox;
    bool sandbox_started = false;
    std::vector<api::Container> containers;  // Created, in creation order.
    bool running = false;  // Status Running written (or found).
  };

  bool StopRequested() EXCLUDES(mu_);
  bool WaitForStop(std::chrono::milliseconds timeout) EXCLUDES(mu_);
  // Lists the node's pods and creates the ready ones; false when the API
  // server could not be reached.
  bool Poll();
  void Adopt(const std::string& uid, const nlohmann::json& pod);
  void StartPod(const std::string& uid, const nlohmann::json& pod);
  void MarkRunning(const std::string& uid, PodState& state);
  // Accepts the next plugin (waiting up to one poll interval) and
  // synchronizes it; false when none came or its handshake failed.
  bool AcceptPlugin();
  // Drops the plugin when its connection ended; true if it did.
  bool PluginLost();
  SyncState CurrentState() const;
  void Print(const std::string& line) { output_(line); }
  // Prints {"pod","container","error"} unless this error was the last one
  // printed for `key`.
  void PrintErrorOnce(const std::string& key, const std::string& pod,
                      const std::string& container, const std::string& error);
  void NoteOutage(const Status& status);

  NriRuntime* const runtime_;
  kube::KubeClient* const client_;
  base::Clock* const clock_;
  const ClusterOptions options_;
  const Output output_;

  base::Mutex mu_;
  base::CondVar cv_;
  bool stop_ GUARDED_BY(mu_) = false;

  // Run()'s thread only.
  std::unique_ptr<PluginConnection> plugin_;
  std::map<std::string, PodState> pods_;       // By uid.
  std::map<std::string, std::string> errors_;  // Last printed, by uid/name.
  bool listed_ = false;
  bool outage_ = false;
};

}  // namespace gcushare::nri_runtime

#endif  // GCUSHARE_TESTS_PEERS_NRI_RUNTIME_CLUSTER_RUNTIME_H_
