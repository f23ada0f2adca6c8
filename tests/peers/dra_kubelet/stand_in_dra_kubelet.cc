#include "tests/peers/dra_kubelet/stand_in_dra_kubelet.h"

#include <algorithm>
#include <atomic>
#include <set>

#include "dra-driver/api/dra_health.grpc.pb.h"
#include "dra-driver/api/pluginregistration.grpc.pb.h"
#include "tests/peers/cdi_runtime/cdi_registry.h"
#include "tests/peers/dra_kubelet/plugin_validation.h"

namespace gcushare::peers::dra_kubelet {
namespace {

namespace health_api = ::v1alpha1;
namespace reg_api = ::pluginregistration;

using nlohmann::json;

std::chrono::system_clock::time_point RealDeadline(
    std::chrono::milliseconds timeout) {
  return std::chrono::system_clock::now() + timeout;
}

DeviceHealthStatus FromProto(health_api::HealthStatus health) {
  switch (health) {
    case health_api::HEALTHY:
      return DeviceHealthStatus::kHealthy;
    case health_api::UNHEALTHY:
      return DeviceHealthStatus::kUnhealthy;
    default:
      return DeviceHealthStatus::kUnknown;
  }
}

std::string WipeKey(const std::string& driver) { return "wipe:" + driver; }

}  // namespace

struct StandInDraKubelet::Plugin {
  std::string socket_path;
  std::string identity;
  std::string driver;
  std::string endpoint;
  std::string service;
  bool serves_health = false;
  std::shared_ptr<grpc::Channel> channel;
  // Guarded by the owner's mu_.
  bool connected = false;
  bool health_streaming = false;
  uint64_t health_streams = 0;
  uint64_t health_messages = 0;

  std::atomic<bool> stopping{false};
  base::Mutex health_mu;
  base::CondVar health_cv;
  grpc::ClientContext* health_context GUARDED_BY(health_mu) = nullptr;
  bool health_retry GUARDED_BY(health_mu) = false;
  std::thread monitor;
  std::thread health;
};

StandInDraKubelet::StandInDraKubelet(DraKubeletOptions options)
    : options_(std::move(options)),
      health_(options_.clock),
      delays_(options_.clock),
      watcher_(options_.registry_dir,
               RegistryWatcher::Callbacks{
                   [this](const std::string& path, const std::string& id) {
                     SocketAdded(path, id);
                   },
                   [this](const std::string& path) { SocketRemoved(path); }}) {
  for (const auto& [uid, info] : options_.checkpoint) {
    claims_[info.namespace_name + "/" + info.name] = info;
  }
}

StandInDraKubelet::~StandInDraKubelet() { Stop(); }

Status StandInDraKubelet::Start() {
  {
    base::MutexLock lock(mu_);
    if (stopped_) return FailedPreconditionError("stopped");
    if (registration_thread_.joinable()) return OkStatus();
    registration_thread_ = std::thread([this] { RegistrationLoop(); });
  }
  if (options_.kube != nullptr) {
    // At start no driver is usable: wipe every slice of the node.
    delays_.AddIfAbsent(WipeKey(""), std::chrono::nanoseconds(0),
                        [this] { Wipe("", 0); });
  }
  delays_.Start();
  return watcher_.Start();
}

void StandInDraKubelet::Stop() {
  {
    base::MutexLock lock(mu_);
    if (stopped_) return;
    stopped_ = true;
  }
  pending_cv_.NotifyAll();
  watcher_.Stop();
  if (registration_thread_.joinable()) registration_thread_.join();
  delays_.Stop();
  std::vector<std::shared_ptr<Plugin>> plugins;
  {
    base::MutexLock lock(mu_);
    for (auto& [driver, list] : store_) {
      plugins.insert(plugins.end(), list.begin(), list.end());
    }
    store_.clear();
    sockets_.clear();
  }
  for (const auto& plugin : plugins) StopPlugin(plugin);
}

DraKubeletView StandInDraKubelet::View() const {
  base::MutexLock lock(mu_);
  DraKubeletView view;
  view.registrations = registrations_;
  view.wipes = wipes_;
  for (const auto& [driver, list] : store_) {
    for (const auto& plugin : list) {
      view.plugins.push_back(
          PluginView{plugin->driver, plugin->endpoint, plugin->socket_path,
                     plugin->service, plugin->serves_health, plugin->connected,
                     plugin->health_streaming, plugin->health_streams,
                     plugin->health_messages});
    }
  }
  return view;
}

int StandInDraKubelet::RunDueTimers() { return delays_.RunDue(); }

bool StandInDraKubelet::WipePending(const std::string& driver) const {
  return delays_.Pending(WipeKey(driver));
}

// ---- Discovery and registration ----

void StandInDraKubelet::SocketAdded(const std::string& path,
                                    const std::string& identity) {
  std::shared_ptr<Plugin> old;
  {
    base::MutexLock lock(mu_);
    if (stopped_) return;
    SocketState& state = sockets_[path];
    if (state.identity == identity) return;  // Reported twice.
    old = state.plugin;
    state = SocketState{identity, 0, nullptr};
    delays_.Cancel("register:" + path);
    pending_.emplace_back(path, identity);
  }
  pending_cv_.NotifyOne();
  if (old) RemovePlugin(old);  // A new socket replaces the old plugin.
}

void StandInDraKubelet::SocketRemoved(const std::string& path) {
  std::shared_ptr<Plugin> old;
  {
    base::MutexLock lock(mu_);
    auto found = sockets_.find(path);
    if (found == sockets_.end()) return;
    old = found->second.plugin;
    sockets_.erase(found);
    delays_.Cancel("register:" + path);
  }
  if (old) RemovePlugin(old);
}

void StandInDraKubelet::RegistrationLoop() {
  while (true) {
    std::pair<std::string, std::string> next;
    {
      base::MutexLock lock(mu_);
      pending_cv_.Wait(lock, [this]() REQUIRES(mu_) {
        return stopped_ || !pending_.empty();
      });
      if (stopped_) return;
      next = std::move(pending_.front());
      pending_.pop_front();
    }
    Register(next.first, next.second);
  }
}

void StandInDraKubelet::Record(RegistrationRecord record) {
  base::MutexLock lock(mu_);
  registrations_.push_back(std::move(record));
}

void StandInDraKubelet::RetryRegistration(const std::string& path,
                                          const std::string& identity) {
  base::MutexLock lock(mu_);
  auto found = sockets_.find(path);
  if (stopped_ || found == sockets_.end() ||
      found->second.identity != identity) {
    return;
  }
  // nestedpendingoperations: 500 ms, doubling, at most 2 min 2 s.
  int failures = ++found->second.failures;
  std::chrono::milliseconds delay(500);
  for (int i = 1; i < failures && delay < std::chrono::seconds(122); ++i) {
    delay *= 2;
  }
  delay = std::min<std::chrono::milliseconds>(delay, std::chrono::seconds(122));
  delays_.Replace("register:" + path, delay, [this, path, identity] {
    {
      base::MutexLock lock(mu_);
      auto again = sockets_.find(path);
      if (stopped_ || again == sockets_.end() ||
          again->second.identity != identity) {
        return;
      }
      pending_.emplace_back(path, identity);
    }
    pending_cv_.NotifyOne();
  });
}

void StandInDraKubelet::Register(const std::string& path,
                                 const std::string& identity) {
  {
    base::MutexLock lock(mu_);
    auto found = sockets_.find(path);
    if (stopped_ || found == sockets_.end() ||
        found->second.identity != identity) {
      return;
    }
  }
  RegistrationRecord record;
  record.socket_path = path;
  auto channel =
      grpc::CreateChannel("unix:" + path, grpc::InsecureChannelCredentials());
  if (!channel->WaitForConnected(RealDeadline(options_.dial_timeout))) {
    record.error = "RegisterPlugin error -- dial failed at socket " + path;
    RetryRegistration(path, identity);  // Scheduled before it is seen.
    Record(std::move(record));
    return;
  }
  auto stub = reg_api::Registration::NewStub(channel);
  reg_api::PluginInfo info;
  {
    grpc::ClientContext context;
    context.set_deadline(RealDeadline(options_.get_info_timeout));
    grpc::Status status =
        stub->GetInfo(&context, reg_api::InfoRequest(), &info);
    if (!status.ok()) {
      // The kubelet does not notify the plugin of this failure.
      record.error =
          "RegisterPlugin error -- failed to get plugin info using RPC "
          "GetInfo at socket " +
          path + ", err: " + FromGrpc(status, "GetInfo").ToString();
      RetryRegistration(path, identity);  // Scheduled before it is seen.
      Record(std::move(record));
      return;
    }
  }
  record.type = info.type();
  record.driver_name = info.name();
  record.endpoint = info.endpoint();
  record.supported_versions.assign(info.supported_versions().begin(),
                                   info.supported_versions().end());
  auto notify = [&](bool registered, const std::string& error) {
    grpc::ClientContext context;
    context.set_deadline(RealDeadline(options_.notify_timeout));
    reg_api::RegistrationStatus status;
    status.set_plugin_registered(registered);
    status.set_error(error);
    reg_api::RegistrationStatusResponse response;
    return stub->NotifyRegistrationStatus(&context, status, &response).ok();
  };
  StatusOr<ValidatedPlugin> validated =
      ValidatePluginInfo(info.type(), info.name(), info.endpoint(),
                         record.supported_versions, path);
  if (!validated.ok()) {
    record.error = validated.status().message();
    record.notified = notify(false, record.error);
    RetryRegistration(path, identity);  // Scheduled before it is seen.
    Record(std::move(record));
    return;
  }
  record.endpoint = validated->endpoint;
  std::string error;
  std::shared_ptr<Plugin> plugin =
      AddPlugin(path, identity, validated->driver_name, validated->endpoint,
                validated->chosen_service, validated->serves_health, &error);
  if (plugin == nullptr) {
    if (error.empty()) return;  // Stopped, or the socket went away.
    record.error =
        "RegisterPlugin error -- plugin registration failed with err: " + error;
    record.notified = notify(false, record.error);
    Record(std::move(record));
    return;
  }
  record.chosen_service = validated->chosen_service;
  record.registered = true;
  record.notified = notify(true, "");
  if (!record.notified) {
    record.error =
        "RegisterPlugin error -- failed to send registration "
        "status at socket " +
        path;
  }
  Record(std::move(record));
}

std::shared_ptr<StandInDraKubelet::Plugin> StandInDraKubelet::AddPlugin(
    const std::string& socket_path, const std::string& identity,
    const std::string& driver, const std::string& endpoint,
    const std::string& service, bool serves_health, std::string* error) {
  base::MutexLock lock(mu_);
  auto socket = sockets_.find(socket_path);
  if (stopped_ || socket == sockets_.end() ||
      socket->second.identity != identity) {
    return nullptr;
  }
  for (const auto& other : store_[driver]) {
    if (other->endpoint == endpoint) {
      *error = "endpoint ";
      *error += endpoint;
      *error += " already registered for DRA driver plugin ";
      *error += driver;
      return nullptr;
    }
  }
  auto plugin = std::make_shared<Plugin>();
  plugin->socket_path = socket_path;
  plugin->identity = identity;
  plugin->driver = driver;
  plugin->endpoint = endpoint;
  plugin->service = service;
  plugin->serves_health = serves_health;
  grpc::ChannelArguments args;
  if (options_.max_reconnect_backoff_ms > 0) {
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS,
                options_.max_reconnect_backoff_ms);
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS,
                std::min(1000, options_.max_reconnect_backoff_ms));
    args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS,
                std::min(1000, options_.max_reconnect_backoff_ms));
  }
  plugin->channel = grpc::CreateCustomChannel(
      "unix:" + endpoint, grpc::InsecureChannelCredentials(), args);
  store_[driver].push_back(plugin);
  socket->second.plugin = plugin;
  socket->second.failures = 0;
  SyncLocked(driver);
  plugin->monitor = std::thread([this, plugin] { MonitorConnection(plugin); });
  if (serves_health && options_.resource_health) {
    plugin->health = std::thread([this, plugin] { WatchHealth(plugin); });
  }
  return plugin;
}

void StandInDraKubelet::RemovePlugin(const std::shared_ptr<Plugin>& plugin) {
  {
    base::MutexLock lock(mu_);
    auto found = store_.find(plugin->driver);
    if (found != store_.end()) {
      std::erase(found->second, plugin);
      if (found->second.empty()) store_.erase(found);
    }
    SyncLocked(plugin->driver);
  }
  StopPlugin(plugin);
}

void StandInDraKubelet::StopPlugin(const std::shared_ptr<Plugin>& plugin) {
  plugin->stopping = true;
  {
    base::MutexLock lock(plugin->health_mu);
    if (plugin->health_context != nullptr) plugin->health_context->TryCancel();
  }
  plugin->health_cv.NotifyAll();
  if (plugin->monitor.joinable()) plugin->monitor.join();
  if (plugin->health.joinable()) plugin->health.join();
}

// ---- Connection state and wiping ----

void StandInDraKubelet::MonitorConnection(
    const std::shared_ptr<Plugin>& plugin) {
  grpc_connectivity_state state = plugin->channel->GetState(true);
  SetConnected(plugin, state == GRPC_CHANNEL_READY);
  while (!plugin->stopping) {
    plugin->channel->WaitForStateChange(
        state, RealDeadline(std::chrono::milliseconds(50)));
    grpc_connectivity_state now = plugin->channel->GetState(false);
    // Ask for a reconnect, as the kubelet does on ConnEnd, so that a
    // restarted plugin is noticed.
    if (now == GRPC_CHANNEL_IDLE) now = plugin->channel->GetState(true);
    if (now != state) {
      state = now;
      SetConnected(plugin, state == GRPC_CHANNEL_READY);
    }
  }
}

void StandInDraKubelet::SetConnected(const std::shared_ptr<Plugin>& plugin,
                                     bool connected) {
  base::MutexLock lock(mu_);
  if (plugin->connected == connected) return;
  plugin->connected = connected;
  auto found = store_.find(plugin->driver);
  if (found == store_.end() ||
      std::find(found->second.begin(), found->second.end(), plugin) ==
          found->second.end()) {
    return;  // Deregistered meanwhile.
  }
  SyncLocked(plugin->driver);
}

void StandInDraKubelet::SyncLocked(const std::string& driver) {
  if (options_.kube == nullptr || stopped_) return;
  bool usable = false;
  auto found = store_.find(driver);
  if (found != store_.end()) {
    for (const auto& plugin : found->second) usable |= plugin->connected;
  }
  if (usable) {
    delays_.Cancel(WipeKey(driver));
  } else {
    // Already queued: the original time stands.
    delays_.AddIfAbsent(WipeKey(driver), options_.wiping_delay,
                        [this, driver] { Wipe(driver, 0); });
  }
}

void StandInDraKubelet::Wipe(const std::string& driver, int attempt) {
  auto retry = [&] {
    base::MutexLock lock(mu_);
    if (stopped_) return;
    if (!driver.empty()) {
      auto found = store_.find(driver);
      if (found != store_.end()) {
        for (const auto& plugin : found->second) {
          if (plugin->connected) return;  // Usable again.
        }
      }
    }
    std::chrono::seconds delay(1);
    for (int i = 0; i < attempt && delay < std::chrono::minutes(5); ++i) {
      delay *= 2;
    }
    delay = std::min<std::chrono::seconds>(delay, std::chrono::minutes(5));
    delays_.Replace(WipeKey(driver), delay,
                    [this, driver, attempt] { Wipe(driver, attempt + 1); });
  };
  kube::KubeClient* kube = options_.kube;
  StatusOr<json> node =
      kube->Get(kube::Resource::Nodes(), "", options_.node_name);
  if (!node.ok()) return retry();
  std::string selector = "spec.nodeName=" + options_.node_name;
  if (!driver.empty()) selector += ",spec.driver=" + driver;
  kube::ListOptions list_options;
  list_options.field_selector = selector;
  StatusOr<kube::ObjectList> slices =
      kube->List(kube::Resource::ResourceSlices(), "", list_options);
  if (!slices.ok()) return retry();
  bool failed = false;
  for (const json& slice : slices->items) {
    std::string name =
        slice.value("metadata", json::object()).value("name", "");
    Status deleted = kube->Delete(kube::Resource::ResourceSlices(), "", name,
                                  kube::DeleteOptions{});
    if (!deleted.ok() && deleted.http_code() != 404) failed = true;
  }
  if (failed) return retry();
  base::MutexLock lock(mu_);
  wipes_.push_back(selector);
}

// ---- Health ----

void StandInDraKubelet::WatchHealth(std::shared_ptr<Plugin> plugin) {
  auto stub = health_api::DRAResourceHealth::NewStub(plugin->channel);
  while (!plugin->stopping) {
    grpc::ClientContext context;
    {
      base::MutexLock lock(plugin->health_mu);
      if (plugin->stopping) break;
      plugin->health_context = &context;
    }
    {
      base::MutexLock lock(mu_);
      ++plugin->health_streams;
    }
    auto reader = stub->NodeWatchResources(
        &context, health_api::NodeWatchResourcesRequest());
    health_api::NodeWatchResourcesResponse response;
    while (reader->Read(&response)) {
      std::vector<DeviceHealthReport> reports;
      for (const auto& device : response.devices()) {
        reports.push_back(DeviceHealthReport{
            device.device().pool_name(), device.device().device_name(),
            FromProto(device.health()), device.last_updated_time(),
            device.health_check_timeout_seconds(), device.message()});
      }
      health_.Update(plugin->driver, reports);
      base::MutexLock lock(mu_);
      plugin->health_streaming = true;
      ++plugin->health_messages;
    }
    (void)reader->Finish();
    {
      base::MutexLock lock(plugin->health_mu);
      plugin->health_context = nullptr;
      plugin->health_retry = false;
    }
    health_.ClearDriver(plugin->driver);
    {
      base::MutexLock lock(mu_);
      plugin->health_streaming = false;
    }
    if (plugin->stopping) break;
    // wait.UntilWithContext: the next attempt 5 s after this one ended.
    std::weak_ptr<Plugin> weak = plugin;
    delays_.Replace("health:" + plugin->socket_path + "#" + plugin->identity,
                    options_.health_retry_period, [weak] {
                      auto target = weak.lock();
                      if (!target) return;
                      {
                        base::MutexLock lock(target->health_mu);
                        target->health_retry = true;
                      }
                      target->health_cv.NotifyAll();
                    });
    base::MutexLock lock(plugin->health_mu);
    plugin->health_cv.Wait(lock, [&plugin]() REQUIRES(plugin->health_mu) {
      return plugin->health_retry || plugin->stopping.load();
    });
  }
}

DeviceHealthView StandInDraKubelet::Health(const std::string& driver,
                                           const std::string& pool,
                                           const std::string& device) const {
  return health_.Get(driver, pool, device);
}

// ---- DRA calls and pods ----

StatusOr<std::shared_ptr<StandInDraKubelet::Plugin>>
StandInDraKubelet::GetPlugin(const std::string& driver) const {
  if (driver.empty()) return InvalidArgumentError("DRA driver name is empty");
  base::MutexLock lock(mu_);
  auto found = store_.find(driver);
  if (found == store_.end() || found->second.empty()) {
    return FailedPreconditionError("DRA driver " + driver +
                                   " is not registered");
  }
  // The most recent connected plugin, else the most recent one.
  for (auto it = found->second.rbegin(); it != found->second.rend(); ++it) {
    if ((*it)->connected) return *it;
  }
  return found->second.back();
}

StatusOr<PrepareAnswers> StandInDraKubelet::PrepareClaims(
    const std::string& driver, const std::vector<ClaimRef>& claims) {
  GCUSHARE_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, GetPlugin(driver));
  return CallNodePrepareResources(plugin->channel, plugin->service, claims,
                                  options_.call_timeout);
}

StatusOr<UnprepareAnswers> StandInDraKubelet::UnprepareClaims(
    const std::string& driver, const std::vector<ClaimRef>& claims) {
  GCUSHARE_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, GetPlugin(driver));
  return CallNodeUnprepareResources(plugin->channel, plugin->service, claims,
                                    options_.call_timeout);
}

Status StandInDraKubelet::PrepareForPod(const json& pod) {
  PodIdentity id = IdentifyPod(pod);
  if (id.uid.empty() || id.name.empty()) {
    return InvalidArgumentError("pod without metadata.name or metadata.uid");
  }
  GCUSHARE_ASSIGN_OR_RETURN(std::vector<PodClaimRef> refs,
                            ResolvePodClaims(pod));
  struct Checked {
    std::string name;
    std::string uid;
    std::vector<std::string> drivers;
  };
  std::vector<Checked> checked;
  // Validation pass: nothing is recorded when a claim cannot be used.
  for (const PodClaimRef& ref : refs) {
    if (!ref.claim_name) continue;  // No claim needed.
    if (options_.kube == nullptr) {
      return FailedPreconditionError("no API client to fetch ResourceClaim " +
                                     *ref.claim_name);
    }
    StatusOr<json> claim = options_.kube->Get(
        kube::Resource::ResourceClaims(), id.namespace_name, *ref.claim_name);
    if (!claim.ok()) {
      return claim.status().WithContext("fetch ResourceClaim " +
                                        *ref.claim_name);
    }
    GCUSHARE_ASSIGN_OR_RETURN(
        std::string uid, CheckClaimForPod(pod, *claim, ref.must_check_owner));
    GCUSHARE_ASSIGN_OR_RETURN(std::vector<std::string> drivers,
                              AllocatedDrivers(*claim));
    for (const std::string& driver : drivers) {
      GCUSHARE_RETURN_IF_ERROR(GetPlugin(driver).status());
    }
    checked.push_back(Checked{*ref.claim_name, uid, std::move(drivers)});
  }
  std::map<std::string, std::vector<ClaimRef>> batches;
  std::map<std::string, std::string> names_by_uid;
  {
    base::MutexLock lock(claims_mu_);
    for (const Checked& claim : checked) {
      std::string key = id.namespace_name + "/" + claim.name;
      auto found = claims_.find(key);
      if (found == claims_.end()) {
        ClaimInfo info;
        info.namespace_name = id.namespace_name;
        info.name = claim.name;
        info.uid = claim.uid;
        for (const std::string& driver : claim.drivers) info.drivers[driver];
        found = claims_.emplace(key, std::move(info)).first;
      } else if (found->second.uid != claim.uid) {
        return FailedPreconditionError(
            "old ResourceClaim with same name " + claim.name +
            " and different UID " + found->second.uid +
            " still exists (previous pod force-deleted?!)");
      }
      found->second.pod_uids.insert(id.uid);
      if (found->second.prepared || names_by_uid.count(claim.uid)) continue;
      names_by_uid[claim.uid] = claim.name;
      for (const std::string& driver : claim.drivers) {
        batches[driver].push_back(
            ClaimRef{id.namespace_name, claim.uid, claim.name});
      }
    }
  }
  for (const auto& [driver, claims] : batches) {
    GCUSHARE_ASSIGN_OR_RETURN(PrepareAnswers answers,
                              PrepareClaims(driver, claims));
    for (const auto& [uid, answer] : answers) {
      if (!answer.error.empty()) {
        return InternalError("NodePrepareResources failed for ResourceClaim " +
                             names_by_uid[uid] + ": " + answer.error);
      }
      base::MutexLock lock(claims_mu_);
      auto found = claims_.find(id.namespace_name + "/" + names_by_uid[uid]);
      if (found == claims_.end()) {
        return InternalError(
            "internal error: unable to get claim info for "
            "ResourceClaim " +
            names_by_uid[uid] + " in namespace " + id.namespace_name);
      }
      found->second.drivers[driver] = answer.devices;
    }
  }
  base::MutexLock lock(claims_mu_);
  for (const auto& [uid, name] : names_by_uid) {
    auto found = claims_.find(id.namespace_name + "/" + name);
    if (found != claims_.end()) found->second.prepared = true;
  }
  return OkStatus();
}

StatusOr<PodRun> StandInDraKubelet::RunPod(const json& pod) {
  GCUSHARE_RETURN_IF_ERROR(
      PrepareForPod(pod).WithContext("prepare dynamic resources"));
  PodIdentity id = IdentifyPod(pod);
  PodRun run;
  for (const json* container : PodContainers(pod)) {
    ContainerRun out;
    out.name = container->value("name", "");
    GCUSHARE_ASSIGN_OR_RETURN(std::vector<ContainerClaimRequest> requests,
                              ContainerClaimRequests(pod, *container));
    {
      base::MutexLock lock(claims_mu_);
      for (const ContainerClaimRequest& request : requests) {
        auto found = claims_.find(id.namespace_name + "/" + request.claim_name);
        if (found == claims_.end()) {
          return InternalError(
              "internal error: unable to get claim info for ResourceClaim " +
              request.claim_name + " in namespace " + id.namespace_name);
        }
        std::vector<std::string> ids =
            CdiDevicesForRequest(found->second, request.request);
        out.cdi_device_ids.insert(out.cdi_device_ids.end(), ids.begin(),
                                  ids.end());
      }
    }
    cdi_runtime::ContainerView base;
    base.env = ContainerEnv(*container);
    StatusOr<cdi_runtime::ContainerView> view = cdi_runtime::InjectDevices(
        cdi_runtime::LoadCdiRegistry(options_.cdi_dirs), out.cdi_device_ids,
        base,
        options_.device_info
            ? options_.device_info
            : cdi_runtime::DeviceInfoFn(cdi_runtime::RealDeviceInfo));
    if (!view.ok()) {
      return view.status().WithContext("CreateContainer " + out.name);
    }
    out.view = std::move(*view);
    run.containers.push_back(std::move(out));
  }
  return run;
}

Status StandInDraKubelet::StopPod(const json& pod) {
  PodIdentity id = IdentifyPod(pod);
  std::vector<std::string> names;
  {
    base::MutexLock lock(claims_mu_);
    for (const auto& [key, info] : claims_) {
      if (info.namespace_name == id.namespace_name &&
          info.pod_uids.count(id.uid)) {
        names.push_back(info.name);
      }
    }
  }
  if (names.empty()) {
    // No record (e.g. a restarted kubelet): take the names from the pod.
    StatusOr<std::vector<PodClaimRef>> refs = ResolvePodClaims(pod);
    if (!refs.ok())
      return refs.status().WithContext("unprepare dynamic resources");
    for (const PodClaimRef& ref : *refs) {
      if (ref.claim_name) names.push_back(*ref.claim_name);
    }
  }
  std::map<std::string, std::vector<ClaimRef>> batches;
  std::map<std::string, std::string> names_by_uid;
  {
    base::MutexLock lock(claims_mu_);
    for (const std::string& name : names) {
      auto found = claims_.find(id.namespace_name + "/" + name);
      if (found == claims_.end()) continue;
      ClaimInfo& info = found->second;
      if (info.pod_uids.size() > 1) {
        info.pod_uids.erase(id.uid);  // Others still use it.
        continue;
      }
      if (names_by_uid.count(info.uid)) continue;
      names_by_uid[info.uid] = info.name;
      for (const auto& [driver, devices] : info.drivers) {
        batches[driver].push_back(
            ClaimRef{info.namespace_name, info.uid, info.name});
      }
    }
  }
  for (const auto& [driver, claims] : batches) {
    StatusOr<UnprepareAnswers> answers = UnprepareClaims(driver, claims);
    if (!answers.ok()) {
      return answers.status().WithContext("unprepare dynamic resources");
    }
    for (const auto& [uid, error] : *answers) {
      if (!error.empty()) {
        return InternalError(
            "unprepare dynamic resources: NodeUnprepareResources failed for "
            "ResourceClaim " +
            names_by_uid[uid] + ": " + error);
      }
    }
  }
  base::MutexLock lock(claims_mu_);
  for (const auto& [uid, name] : names_by_uid) {
    claims_.erase(id.namespace_name + "/" + name);
  }
  return OkStatus();
}

std::map<std::string, ClaimInfo> StandInDraKubelet::Claims() const {
  base::MutexLock lock(claims_mu_);
  std::map<std::string, ClaimInfo> out;
  for (const auto& [key, info] : claims_) out[info.uid] = info;
  return out;
}

}  // namespace gcushare::peers::dra_kubelet
