// A stand-in NRI runtime (containerd's side of NRI) for tests and the demo:
// it listens on a unix socket, accepts a plugin over the same mux and ttrpc
// as containerd, serves the Runtime service on connection 2 and calls the
// plugin on connection 1 (docs/protocols.md 4.5):
//   1. the plugin connects and calls RegisterPlugin; the name and two-digit
//      index are checked as containerd checks them;
//   2. Configure {runtime name/version, timeouts on v0.7+, NRI_version on
//      v0.12}; the event mask must fit the version's valid events;
//   3. Synchronize with the pods and containers given (split with `more`
//      on v0.7+ when a chunk limit is set);
//   4. CreateContainer and lifecycle events on request. Events go through
//      StateChange before NRI v0.12; from v0.12 through their own RPC,
//      falling back to StateChange when the plugin answers Unimplemented.
//      Events the plugin did not subscribe to are not sent.
// Event calls carry the metadata containerd adds
// (containerd-namespace-ttrpc=k8s.io); Configure and Synchronize do not.
// Like upstream, mux frames for unknown connection ids are dropped.
//
// The transport is the stand-in's own (socket.h, mux_codec.h,
// ttrpc_codec.h, plugin_link.h), never the plugin's, so that a codec bug
// cannot sit on both ends of a test. The NRI messages themselves are the
// classes generated from upstream's api.proto (//nri-plugin/api): that is
// upstream's schema, not our codec, and both sides may share it.
//
// Failure: a protocol violation or timeout fails the call and closes the
// plugin's connection, as containerd does.
// Ownership: NriRuntime owns the listening socket (removed on
// destruction); PluginConnection owns one plugin's connection.
// Thread-safety: PluginConnection's calls may run concurrently.
#ifndef GCUSHARE_TESTS_PEERS_NRI_RUNTIME_RUNTIME_H_
#define GCUSHARE_TESTS_PEERS_NRI_RUNTIME_RUNTIME_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/mutex.h"
#include "nri-plugin/api/api.pb.h"
#include "status/status.h"
#include "tests/peers/nri_runtime/plugin_link.h"
#include "tests/peers/nri_runtime/socket.h"

namespace gcushare::nri_runtime {

namespace api = ::nri::pkg::api::v1alpha1;

inline constexpr std::string_view kPluginService =
    "nri.pkg.api.v1alpha1.Plugin";
inline constexpr std::string_view kRuntimeService =
    "nri.pkg.api.v1alpha1.Runtime";

// The NRI library version the runtime emulates (docs/protocols.md 4.6).
enum class NriVersion {
  kV0_4,   // containerd 1.7.7-1.7.13 (the capture)
  kV0_8,   // containerd 1.7.26+, 2.0, 2.1
  kV0_12,  // per-event RPCs with StateChange fallback
};

struct RuntimeOptions {
  std::string socket_path;
  std::string runtime_name = "containerd";
  std::string runtime_version = "v1.7.13";
  NriVersion version = NriVersion::kV0_4;
  std::string plugin_config;  // ConfigureRequest.config
  std::chrono::milliseconds registration_timeout{5000};
  std::chrono::milliseconds request_timeout{2000};
  // Synchronize chunk size in pods+containers (v0.7+); 0: one message.
  size_t sync_chunk = 0;
};

struct SyncState {
  std::vector<api::PodSandbox> pods;
  std::vector<api::Container> containers;
};

class PluginConnection;

class NriRuntime {
 public:
  static StatusOr<std::unique_ptr<NriRuntime>> Listen(RuntimeOptions options);
  ~NriRuntime();

  const RuntimeOptions& options() const { return options_; }

  // Accepts the next plugin and runs registration, Configure and
  // Synchronize. kDeadlineExceeded when no plugin connects in time.
  StatusOr<std::unique_ptr<PluginConnection>> AcceptPlugin(
      std::chrono::milliseconds timeout, const SyncState& state = {});

  // Accepts a connection and returns it raw (for tests that speak bytes).
  StatusOr<Fd> AcceptRaw(std::chrono::milliseconds timeout);

 private:
  explicit NriRuntime(RuntimeOptions options) : options_(std::move(options)) {}
  RuntimeOptions options_;
  Fd listener_;
};

class PluginConnection {
 public:
  PluginConnection(Fd fd, const RuntimeOptions& options);
  ~PluginConnection();

  // Waits for RegisterPlugin, then Configure and Synchronize.
  Status Handshake(const SyncState& state);

  const std::string& plugin_name() const { return name_; }
  const std::string& plugin_index() const { return index_; }
  // The subscription as the runtime uses it (0 from the plugin means all).
  int32_t events() const { return events_; }
  bool Subscribed(api::Event event) const;

  Status Synchronize(const SyncState& state);
  StatusOr<api::CreateContainerResponse> CreateContainer(
      const api::PodSandbox& pod, const api::Container& container);
  // A lifecycle event other than CreateContainer; OK without sending when
  // the plugin did not subscribe. `via` is set to the method used.
  Status SendEvent(api::Event event, const api::PodSandbox& pod,
                   const api::Container* container, std::string* via = nullptr);
  Status Shutdown();

  void Close();
  // Waits for the plugin (or an error) to end the connection.
  bool WaitClosed(std::chrono::milliseconds timeout);
  bool closed() const { return link_->closed(); }
  // A Plugin method with a raw payload, for tests of bad input.
  StatusOr<std::string> CallRaw(const std::string& method,
                                const std::string& payload) {
    return link_->Call(kPluginService, method, payload,
                       options_.request_timeout);
  }
  // Raw bytes in one mux frame on a connection id, for tests of bad input.
  Status WriteRaw(uint32_t conn_id, const std::string& bytes) {
    return link_->WriteRaw(conn_id, bytes);
  }

 private:
  template <typename Resp, typename Req>
  StatusOr<Resp> Call(const std::string& method, const Req& request,
                      bool event_metadata);

  StatusOr<std::string> RegisterPlugin(const TtrpcRequest& request);
  StatusOr<std::string> UpdateContainers(const TtrpcRequest& request);

  RuntimeOptions options_;
  base::Mutex mu_;
  base::CondVar cv_;
  bool registered_ GUARDED_BY(mu_) = false;
  // Written once, under mu_ with registered_, by RegisterPlugin on the link's
  // reader thread; read only after Handshake() saw registered_.
  std::string name_;
  std::string index_;
  int32_t events_ = 0;
  std::unique_ptr<PluginLink> link_;  // Last: its reader uses the above.
};

}  // namespace gcushare::nri_runtime

#endif  // GCUSHARE_TESTS_PEERS_NRI_RUNTIME_RUNTIME_H_
