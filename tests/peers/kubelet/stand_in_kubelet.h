// StandInKubelet: the device-manager half of kubelet, for tests and demos
// (docs/protocols.md 1.2-1.5). Faithful where the plugin can tell:
//   - serves v1beta1.Registration on <dir>/kubelet.sock; Register checks the
//     version ("v1beta1") and the resource name (an extended resource: a
//     domain prefix, not kubernetes.io/, not "requests.") and answers
//     InvalidArgument like kubelet, then dials <dir>/<endpoint> synchronously
//     (10 s, blocking), calls GetDevicePluginOptions and opens ListAndWatch
//     before answering;
//   - reads ListAndWatch with kubelet's receive limit of 4 MiB: a larger
//     message ends the stream with RESOURCE_EXHAUSTED, as in kubelet;
//   - allocates like kubelet: one container per Allocate call, from healthy
//     IDs not yet allocated, asking GetPreferredAllocation first when the
//     plugin offers it;
//   - Restart() does what a kubelet restart does to the directory: stop
//     serving, delete every non-directory entry except
//     kubelet_internal_checkpoint (the plugins' sockets included), and serve
//     a fresh kubelet.sock.
// What it saw (registrations, the latest device list per resource, stream
// ends) is exposed for tests; WaitUntil() waits on it without sleeping.
//
// Ownership: owns its gRPC server, channels and stream threads.
// Thread-safety: every method may be called from any thread.
#ifndef GCUSHARE_TESTS_PEERS_KUBELET_STAND_IN_KUBELET_H_
#define GCUSHARE_TESTS_PEERS_KUBELET_STAND_IN_KUBELET_H_

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "device-plugin/api/api.grpc.pb.h"
#include "status/status.h"

namespace gcushare::peers::kubelet {

// grpc-go's default receive limit, which kubelet's client keeps.
inline constexpr int kMaxReceiveBytes = 4 * 1024 * 1024;

// What the stand-in knows about one registered resource.
struct ResourceView {
  std::string resource;
  std::string endpoint;
  v1beta1::DevicePluginOptions options;
  std::vector<v1beta1::Device> devices;  // The latest full list.
  uint64_t lists = 0;                    // ListAndWatch messages received.
  bool streaming = false;                // ListAndWatch open.
  std::string stream_end;                // Why the last stream ended.

  size_t Healthy() const;
  size_t Count(const std::string& health) const;
};

struct KubeletView {
  std::vector<v1beta1::RegisterRequest> registrations;
  std::map<std::string, ResourceView> resources;
  uint64_t restarts = 0;
};

struct ContainerAllocation {
  std::vector<std::string> device_ids;
  v1beta1::ContainerAllocateResponse response;
};

class StandInKubelet {
 public:
  explicit StandInKubelet(std::string dir);
  ~StandInKubelet();  // Stop()s.
  StandInKubelet(const StandInKubelet&) = delete;
  StandInKubelet& operator=(const StandInKubelet&) = delete;

  // Serves Registration on <dir>/kubelet.sock.
  Status Start();
  // Stops serving and ends every ListAndWatch stream. Idempotent.
  void Stop() EXCLUDES(mu_);
  // A kubelet restart (see the file comment).
  Status Restart() EXCLUDES(mu_);

  std::string socket_path() const { return dir_ + "/kubelet.sock"; }

  KubeletView View() const EXCLUDES(mu_);
  // Waits until `predicate` holds on the view (re-checked on every change)
  // or `timeout` passes; returns whether it held.
  bool WaitUntil(const std::function<bool(const KubeletView&)>& predicate,
                 std::chrono::milliseconds timeout) EXCLUDES(mu_);

  // Allocates `count` devices of `resource` for one container, like kubelet
  // admitting a container. FailedPrecondition when the resource is unknown
  // or too few healthy devices are free; the plugin's error otherwise (its
  // gRPC code and message). The IDs stay allocated on success.
  StatusOr<ContainerAllocation> AllocateContainer(const std::string& resource,
                                                  size_t count) EXCLUDES(mu_);
  // Marks `count` free healthy IDs of `resource` allocated without calling
  // the plugin: what kubelet does when it restores a running pod's devices
  // from its checkpoint after a restart (the stand-in keeps no checkpoint
  // file, so it takes any free IDs). FailedPrecondition when too few are free.
  StatusOr<std::vector<std::string>> Restore(const std::string& resource,
                                             size_t count) EXCLUDES(mu_);
  // Gives IDs back (a container ended).
  void Release(const std::string& resource, const std::vector<std::string>& ids)
      EXCLUDES(mu_);

 private:
  class RegistrationService;
  struct Endpoint {
    std::string resource;
    std::shared_ptr<grpc::Channel> channel;
    std::shared_ptr<v1beta1::DevicePlugin::Stub> stub;
    std::unique_ptr<grpc::ClientContext> stream_context;
    std::thread stream_thread;
  };

  grpc::Status HandleRegister(const v1beta1::RegisterRequest& request)
      EXCLUDES(mu_);
  void ReadStream(Endpoint* endpoint, uint64_t generation) EXCLUDES(mu_);
  // Ends the streams and joins their threads; call without mu_ held.
  static void EndStreams(std::vector<std::unique_ptr<Endpoint>> endpoints);

  const std::string dir_;
  std::unique_ptr<RegistrationService> service_;
  std::unique_ptr<grpc::Server> server_;

  mutable base::Mutex mu_;
  base::CondVar changed_;
  KubeletView view_ GUARDED_BY(mu_);
  std::map<std::string, std::unique_ptr<Endpoint>> endpoints_ GUARDED_BY(mu_);
  std::map<std::string, std::set<std::string>> allocated_ GUARDED_BY(mu_);
  std::map<std::string, uint64_t> generation_ GUARDED_BY(mu_);
};

}  // namespace gcushare::peers::kubelet

#endif  // GCUSHARE_TESTS_PEERS_KUBELET_STAND_IN_KUBELET_H_
