// Test support: a small DRA kubelet plugin served over real unix sockets,
// to drive StandInDraKubelet. It serves pluginregistration.Registration on
// <registry_dir>/<registration_name> and, on <plugin_dir>/dra.sock, the
// DRAPlugin services v1 and v1beta1 and v1alpha1.DRAResourceHealth.
//   - GetInfo answers the configured type, name and versions; it can be made
//     to block until Release() (to overrun the kubelet's 1 s deadline);
//   - NodePrepareResources answers every claim with one device "gcu-0" of
//     pool "node-1" (share ID "s-<uid>" on v1), CDI ID
//     "k8s.gcu.enflame.com/gcu=<uid>-gcu-0", and writes that claim's CDI
//     spec into the CDI directory; claims listed in omit_claims are left
//     out of the answer;
//   - NodeUnprepareResources answers every claim and removes the spec;
//   - NodeWatchResources sends each health list given to SendHealth() and
//     ends the stream on EndHealthStream() or shutdown.
// Everything received is recorded.
//
// Thread-safety: every method may be called from any thread.
#ifndef GCUSHARE_TESTS_PEERS_DRA_KUBELET_FAKE_DRA_PLUGIN_H_
#define GCUSHARE_TESTS_PEERS_DRA_KUBELET_FAKE_DRA_PLUGIN_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dra-driver/api/dra_health.grpc.pb.h"

namespace gcushare::peers::dra_kubelet {

struct FakePluginConfig {
  std::string registry_dir;
  std::string plugin_dir;
  std::string cdi_dir;  // Empty: no CDI specs written.
  std::string registration_name = "gcu.enflame.com-reg.sock";
  std::string type = "DRAPlugin";
  std::string name = "gcu.enflame.com";
  std::vector<std::string> versions = {"v1.DRAPlugin", "v1beta1.DRAPlugin",
                                       "v1alpha1.DRAResourceHealth"};
  bool block_get_info = false;
  std::set<std::string> omit_claims;  // UIDs left out of Prepare answers.
  // request_names of every answered device (empty: all requests).
  std::vector<std::string> request_names = {"gcu"};
};

struct FakePluginCall {
  std::string version;  // "v1" or "v1beta1".
  std::string method;   // "prepare" or "unprepare".
  std::vector<std::string> uids;
};

class FakeDraPlugin {
 public:
  explicit FakeDraPlugin(FakePluginConfig config);
  ~FakeDraPlugin();

  // Serves dra.sock, then the registration socket.
  void Start();
  // Stops serving the registration socket and removes it (what a plugin
  // does when it ends).
  void StopRegistration();
  // Stops serving dra.sock (the plugin's service goes away).
  void StopService();

  // Lets a blocked GetInfo return.
  void Release();
  void SendHealth(const std::vector<
                      std::pair<std::string, v1alpha1::HealthStatus>>& devices,
                  int64_t timeout_seconds = 0);
  void EndHealthStream();

  std::string endpoint() const { return config_.plugin_dir + "/dra.sock"; }
  std::string registration_path() const {
    return config_.registry_dir + "/" + config_.registration_name;
  }

  int get_info_calls() const;
  std::vector<std::pair<bool, std::string>> notifications() const;
  std::vector<FakePluginCall> calls() const;

  // Used by the services.
  struct State;

 private:
  FakePluginConfig config_;
  std::shared_ptr<State> state_;
  std::vector<std::unique_ptr<grpc::Service>> services_;
  std::unique_ptr<grpc::Server> service_server_;
  std::unique_ptr<grpc::Server> registration_server_;
};

}  // namespace gcushare::peers::dra_kubelet

#endif  // GCUSHARE_TESTS_PEERS_DRA_KUBELET_FAKE_DRA_PLUGIN_H_
