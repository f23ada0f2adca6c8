#include "tests/peers/nri_runtime/runtime.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <map>
#include <utility>

namespace gcushare::nri_runtime {
namespace {

// Valid subscription bits (docs/protocols.md 4.3): events 1..11 before NRI
// v0.10, 1..14 from v0.10; bit 1 << (event - 1) per event.
constexpr int32_t kValidEventsBeforeV010 = 0x7FF;
constexpr int32_t kValidEventsV010 = 0x3FFF;

int32_t EventBit(api::Event event) {
  return event <= api::UNKNOWN ? 0 : int32_t{1} << (event - 1);
}

int32_t ValidEvents(NriVersion v) {
  return v == NriVersion::kV0_12 ? kValidEventsV010 : kValidEventsBeforeV010;
}

// containerd's registration checks (docs/protocols.md 4.5): the name is
// [A-Za-z0-9_.+-]+, the index exactly two digits.
bool ValidPluginName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' &&
        c != '+' && c != '-') {
      return false;
    }
  }
  return true;
}

bool ValidPluginIndex(std::string_view index) {
  return index.size() == 2 &&
         std::isdigit(static_cast<unsigned char>(index[0])) &&
         std::isdigit(static_cast<unsigned char>(index[1]));
}

template <typename Message>
StatusOr<Message> ParsePayload(const TtrpcRequest& request) {
  Message message;
  if (!message.ParseFromString(request.payload)) {
    return InvalidArgumentError("unmarshal request error: " + request.method +
                                " payload does not parse");
  }
  return message;
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
                            ListenOn(runtime->options_.socket_path));
  return runtime;
}

NriRuntime::~NriRuntime() {
  if (listener_.valid()) {
    listener_.Reset();
    ::unlink(options_.socket_path.c_str());
  }
}

StatusOr<Fd> NriRuntime::AcceptRaw(std::chrono::milliseconds timeout) {
  return AcceptOn(listener_.get(), timeout);
}

StatusOr<std::unique_ptr<PluginConnection>> NriRuntime::AcceptPlugin(
    std::chrono::milliseconds timeout, const SyncState& state) {
  GCUSHARE_ASSIGN_OR_RETURN(Fd fd, AcceptRaw(timeout));
  auto connection = std::make_unique<PluginConnection>(std::move(fd), options_);
  GCUSHARE_RETURN_IF_ERROR(connection->Handshake(state));
  return connection;
}

PluginConnection::PluginConnection(Fd fd, const RuntimeOptions& options)
    : options_(options) {
  std::map<std::string, RuntimeMethod> methods = {
      {"RegisterPlugin",
       [this](const TtrpcRequest& r) { return RegisterPlugin(r); }},
      {"UpdateContainers",
       [this](const TtrpcRequest& r) { return UpdateContainers(r); }},
  };
  link_ =
      std::make_unique<PluginLink>(std::move(fd), std::string(kRuntimeService),
                                   std::move(methods), [this](const Status&) {
                                     base::MutexLock lock(mu_);
                                     cv_.NotifyAll();
                                   });
}

PluginConnection::~PluginConnection() { link_.reset(); }

StatusOr<std::string> PluginConnection::RegisterPlugin(
    const TtrpcRequest& request) {
  GCUSHARE_ASSIGN_OR_RETURN(api::RegisterPluginRequest r,
                            ParsePayload<api::RegisterPluginRequest>(request));
  if (!ValidPluginName(r.plugin_name())) {
    return InvalidArgumentError("invalid plugin name \"" + r.plugin_name() +
                                "\"");
  }
  if (!ValidPluginIndex(r.plugin_idx())) {
    return InvalidArgumentError("invalid plugin index \"" + r.plugin_idx() +
                                "\": must be two digits");
  }
  base::MutexLock lock(mu_);
  if (registered_) return FailedPreconditionError("plugin already registered");
  registered_ = true;
  name_ = r.plugin_name();
  index_ = r.plugin_idx();
  cv_.NotifyAll();
  return api::Empty().SerializeAsString();
}

StatusOr<std::string> PluginConnection::UpdateContainers(
    const TtrpcRequest& request) {
  GCUSHARE_ASSIGN_OR_RETURN(
      api::UpdateContainersRequest r,
      ParsePayload<api::UpdateContainersRequest>(request));
  // Nothing runs here: every requested update is reported failed.
  api::UpdateContainersResponse response;
  for (const auto& u : r.update()) *response.add_failed() = u;
  return response.SerializeAsString();
}

void PluginConnection::Close() { link_->Close(); }

bool PluginConnection::WaitClosed(std::chrono::milliseconds timeout) {
  return link_->WaitClosed(timeout);
}

bool PluginConnection::Subscribed(api::Event event) const {
  return (events_ & EventBit(event)) != 0;
}

template <typename Resp, typename Req>
StatusOr<Resp> PluginConnection::Call(const std::string& method,
                                      const Req& request, bool event_metadata) {
  TtrpcMetadata metadata;
  if (event_metadata) {
    metadata.emplace_back("containerd-namespace-ttrpc", "k8s.io");
  }
  StatusOr<std::string> payload =
      link_->Call(kPluginService, method, request.SerializeAsString(),
                  options_.request_timeout, metadata);
  if (!payload.ok()) {
    if (payload.status().code() == StatusCode::kDeadlineExceeded ||
        payload.status().code() == StatusCode::kUnavailable) {
      // containerd drops a plugin that times out or whose connection broke.
      link_->Close();
    }
    return payload.status();
  }
  Resp response;
  if (!response.ParseFromString(*payload)) {
    return DataLossError(method + " response does not parse");
  }
  return response;
}

Status PluginConnection::Handshake(const SyncState& state) {
  {
    base::MutexLock lock(mu_);
    if (!cv_.WaitFor(lock, options_.registration_timeout,
                     [this]() REQUIRES(mu_) {
                       return registered_ || link_->closed();
                     })) {
      link_->Close();
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
    link_->Close();
    return configured.status();
  }
  int32_t valid = ValidEvents(options_.version);
  int32_t mask = configured->events();
  if (mask == 0) mask = valid;
  if ((mask & ~valid) != 0) {
    link_->Close();
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
      link_->Close();
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
