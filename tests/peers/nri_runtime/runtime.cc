#include "tests/peers/nri_runtime/runtime.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

#include "nri-plugin/mux/frame.h"
#include "nri-plugin/protocol.h"

namespace gcushare::nri_runtime {
namespace {

using nri::kPluginService;
using nri::kRuntimeService;

nri::mux::TrunkOptions RuntimeTrunkOptions() {
  nri::mux::TrunkOptions options;
  options.close_on_unknown_conn = false;  // Upstream drops such frames.
  return options;
}

int32_t ValidEvents(NriVersion v) {
  return v == NriVersion::kV0_12 ? nri::kValidEventsV010
                                 : nri::kValidEventsBeforeV010;
}

// The per-event RPC of NRI v0.12 for `event`, or "" when it has none.
std::string EventMethod(api::Event event) {
  switch (event) {
    case api::RUN_POD_SANDBOX:
      return "RunPodSandbox";
    case api::STOP_POD_SANDBOX:
      return "StopPodSandbox";
    case api::REMOVE_POD_SANDBOX:
      return "RemovePodSandbox";
    case api::POST_UPDATE_POD_SANDBOX:
      return "PostUpdatePodSandbox";
    case api::POST_CREATE_CONTAINER:
      return "PostCreateContainer";
    case api::START_CONTAINER:
      return "StartContainer";
    case api::POST_START_CONTAINER:
      return "PostStartContainer";
    case api::POST_UPDATE_CONTAINER:
      return "PostUpdateContainer";
    case api::REMOVE_CONTAINER:
      return "RemoveContainer";
    default:
      return "";
  }
}

}  // namespace

StatusOr<std::unique_ptr<NriRuntime>> NriRuntime::Listen(
    RuntimeOptions options) {
  std::unique_ptr<NriRuntime> runtime(new NriRuntime(std::move(options)));
  GCUSHARE_ASSIGN_OR_RETURN(runtime->listener_,
                            nri::ListenUnix(runtime->options_.socket_path));
  return runtime;
}

NriRuntime::~NriRuntime() {
  if (listener_.valid()) {
    listener_.Reset();
    ::unlink(options_.socket_path.c_str());
  }
}

StatusOr<nri::UniqueFd> NriRuntime::AcceptRaw(
    std::chrono::milliseconds timeout) {
  return nri::AcceptUnix(listener_.get(), timeout);
}

StatusOr<std::unique_ptr<PluginConnection>> NriRuntime::AcceptPlugin(
    std::chrono::milliseconds timeout, const SyncState& state) {
  GCUSHARE_ASSIGN_OR_RETURN(nri::UniqueFd fd, AcceptRaw(timeout));
  auto connection = std::make_unique<PluginConnection>(std::move(fd), options_);
  GCUSHARE_RETURN_IF_ERROR(connection->Handshake(state));
  return connection;
}

PluginConnection::PluginConnection(nri::UniqueFd fd,
                                   const RuntimeOptions& options)
    : options_(options),
      trunk_(std::move(fd), RuntimeTrunkOptions()),
      client_(trunk_.Sink(nri::mux::kPluginServiceConn)),
      server_(trunk_.Sink(nri::mux::kRuntimeServiceConn), 2) {
  server_.RegisterProto<api::RegisterPluginRequest, api::Empty>(
      std::string(kRuntimeService), "RegisterPlugin",
      [this](const nri::ttrpc::RequestContext&,
             const api::RegisterPluginRequest& r) -> StatusOr<api::Empty> {
        if (!nri::ValidPluginName(r.plugin_name())) {
          return InvalidArgumentError("invalid plugin name \"" +
                                      r.plugin_name() + "\"");
        }
        if (!nri::ValidPluginIndex(r.plugin_idx())) {
          return InvalidArgumentError("invalid plugin index \"" +
                                      r.plugin_idx() +
                                      "\": must be two digits");
        }
        std::lock_guard<std::mutex> lock(mu_);
        if (registered_) {
          return FailedPreconditionError("plugin already registered");
        }
        registered_ = true;
        name_ = r.plugin_name();
        index_ = r.plugin_idx();
        cv_.notify_all();
        return api::Empty();
      });
  server_.RegisterProto<api::UpdateContainersRequest,
                        api::UpdateContainersResponse>(
      std::string(kRuntimeService), "UpdateContainers",
      [](const nri::ttrpc::RequestContext&,
         const api::UpdateContainersRequest& r)
          -> StatusOr<api::UpdateContainersResponse> {
        // Nothing runs here: every requested update is reported failed.
        api::UpdateContainersResponse response;
        for (const auto& u : r.update()) *response.add_failed() = u;
        return response;
      });
  trunk_.Attach(nri::mux::kPluginServiceConn, &client_);
  trunk_.Attach(nri::mux::kRuntimeServiceConn, &server_);
  trunk_.Start([this](const Status& why) {
    client_.Fail(why);
    std::lock_guard<std::mutex> lock(mu_);
    cv_.notify_all();
  });
}

PluginConnection::~PluginConnection() {
  trunk_.Close();
  trunk_.Join();
  server_.Stop();
}

void PluginConnection::Close() { trunk_.Close(); }

bool PluginConnection::WaitClosed(std::chrono::milliseconds timeout) {
  return trunk_.WaitClosed(timeout);
}

bool PluginConnection::Subscribed(api::Event event) const {
  return (events_ & nri::EventBit(event)) != 0;
}

template <typename Resp, typename Req>
StatusOr<Resp> PluginConnection::Call(const std::string& method,
                                      const Req& request, bool event_metadata) {
  nri::ttrpc::Metadata metadata;
  if (event_metadata)
    metadata.emplace_back("containerd-namespace-ttrpc", "k8s.io");
  StatusOr<Resp> response = client_.CallProto<Resp>(
      kPluginService, method, request, options_.request_timeout, metadata);
  if (!response.ok() &&
      (response.status().code() == StatusCode::kDeadlineExceeded ||
       response.status().code() == StatusCode::kUnavailable)) {
    // containerd drops a plugin that times out or whose connection broke.
    trunk_.Close();
  }
  return response;
}

Status PluginConnection::Handshake(const SyncState& state) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (!cv_.wait_for(lock, options_.registration_timeout,
                      [this] { return registered_ || trunk_.closed(); })) {
      trunk_.Close();
      return DeadlineExceededError("plugin did not register in time");
    }
    if (!registered_) {
      return UnavailableError("plugin connection closed before registering");
    }
  }
  api::ConfigureRequest configure;
  configure.set_config(options_.plugin_config);
  configure.set_runtime_name(options_.runtime_name);
  configure.set_runtime_version(options_.runtime_version);
  if (options_.version != NriVersion::kV0_4) {
    configure.set_registration_timeout(options_.registration_timeout.count());
    configure.set_request_timeout(options_.request_timeout.count());
  }
  if (options_.version == NriVersion::kV0_12) {
    configure.set_nri_version("v0.12.2");
  }
  StatusOr<api::ConfigureResponse> configured =
      Call<api::ConfigureResponse>("Configure", configure, false);
  if (!configured.ok()) {
    trunk_.Close();
    return configured.status();
  }
  int32_t valid = ValidEvents(options_.version);
  int32_t mask = configured->events();
  if (mask == 0) mask = valid;
  if ((mask & ~valid) != 0) {
    trunk_.Close();
    char bits[16];
    std::snprintf(bits, sizeof(bits), "0x%x", mask & ~valid);
    return InvalidArgumentError("plugin " + name_ +
                                " subscribed to invalid events " + bits);
  }
  events_ = mask;
  return Synchronize(state);
}

Status PluginConnection::Synchronize(const SyncState& state) {
  size_t chunk =
      options_.version == NriVersion::kV0_4 ? 0 : options_.sync_chunk;
  size_t total = state.pods.size() + state.containers.size();
  if (chunk == 0 || total <= chunk) chunk = total + 1;
  size_t pod = 0, container = 0;
  while (true) {
    api::SynchronizeRequest request;
    size_t n = 0;
    while (n < chunk && pod < state.pods.size()) {
      *request.add_pods() = state.pods[pod++];
      ++n;
    }
    while (n < chunk && container < state.containers.size()) {
      *request.add_containers() = state.containers[container++];
      ++n;
    }
    bool more = pod < state.pods.size() || container < state.containers.size();
    request.set_more(more);
    GCUSHARE_ASSIGN_OR_RETURN(
        api::SynchronizeResponse response,
        Call<api::SynchronizeResponse>("Synchronize", request, false));
    if (more && !response.more()) {
      trunk_.Close();
      return FailedPreconditionError(
          "plugin answered a partial Synchronize without more=true");
    }
    if (!more) return OkStatus();
  }
}

StatusOr<api::CreateContainerResponse> PluginConnection::CreateContainer(
    const api::PodSandbox& pod, const api::Container& container) {
  if (!Subscribed(api::CREATE_CONTAINER)) return api::CreateContainerResponse();
  api::CreateContainerRequest request;
  *request.mutable_pod() = pod;
  *request.mutable_container() = container;
  return Call<api::CreateContainerResponse>("CreateContainer", request, true);
}

Status PluginConnection::SendEvent(api::Event event, const api::PodSandbox& pod,
                                   const api::Container* container,
                                   std::string* via) {
  if (via != nullptr) via->clear();
  if (!Subscribed(event)) return OkStatus();
  std::string method = EventMethod(event);
  if (options_.version == NriVersion::kV0_12 && !method.empty()) {
    Status s;
    if (container == nullptr) {
      api::PodSandboxEventRequest request;
      *request.mutable_pod() = pod;
      s = Call<api::Empty>(method, request, true).status();
    } else {
      api::ContainerEventRequest request;
      *request.mutable_pod() = pod;
      *request.mutable_container() = *container;
      s = Call<api::Empty>(method, request, true).status();
    }
    if (s.code() != StatusCode::kUnimplemented) {
      if (via != nullptr) *via = method;
      return s;
    }
    spdlog::warn(
        "plugin {} does not implement {}; falling back to the "
        "deprecated StateChange",
        name_, method);
  }
  api::StateChangeEvent request;
  request.set_event(event);
  *request.mutable_pod() = pod;
  if (container != nullptr) *request.mutable_container() = *container;
  if (via != nullptr) *via = "StateChange";
  return Call<api::Empty>("StateChange", request, true).status();
}

Status PluginConnection::Shutdown() {
  return Call<api::Empty>("Shutdown", api::Empty(), false).status();
}

}  // namespace gcushare::nri_runtime
