#include "tests/peers/nri_runtime/cluster_runtime.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <set>

#include "contract/names.h"
#include "contract/pod_request.h"
#include "kube/event.h"
#include "kube/json_fields.h"
#include "tests/peers/nri_runtime/apply.h"
#include "tests/peers/nri_runtime/pod_messages.h"

namespace gcushare::nri_runtime {
namespace {

const nlohmann::json& AppContainers(const nlohmann::json& pod) {
  static const nlohmann::json kNone = nlohmann::json::array();
  const nlohmann::json* list = kube::FindPath(pod, {"spec", "containers"});
  return list != nullptr && list->is_array() ? *list : kNone;
}

// Ready for its containers: bound here (the listing's selector), Pending,
// not being deleted, and either marked assigned by the device plugin (after
// kubelet's Allocate) or asking for no enflame.com/gcu-memory: whole-card
// pods (enflame.com/gcu-count is node capacity, not a device plugin
// resource) and pods without GCUs never pass through Allocate.
bool Ready(const nlohmann::json& pod) {
  if (kube::StringAt(pod, {"status", "phase"}) != "Pending") return false;
  if (kube::FindPath(pod, {"metadata", "deletionTimestamp"}) != nullptr) {
    return false;
  }
  if (kube::StringAt(pod, {"metadata", "annotations",
                           std::string(contract::kPodAssigned)}) == "true") {
    return true;
  }
  StatusOr<contract::PodRequest> request = contract::ComputePodRequest(pod);
  return request.ok() && request->memory_units == 0;
}

}  // namespace

ClusterRuntime::ClusterRuntime(NriRuntime* runtime, kube::KubeClient* client,
                               base::Clock* clock, ClusterOptions options,
                               Output output)
    : runtime_(runtime),
      client_(client),
      clock_(clock),
      options_(std::move(options)),
      output_(std::move(output)) {}

ClusterRuntime::~ClusterRuntime() {
  if (plugin_) plugin_->Close();
}

void ClusterRuntime::Stop() {
  base::MutexLock lock(mu_);
  stop_ = true;
  cv_.NotifyAll();
}

bool ClusterRuntime::StopRequested() {
  base::MutexLock lock(mu_);
  return stop_;
}

bool ClusterRuntime::WaitForStop(std::chrono::milliseconds timeout) {
  base::MutexLock lock(mu_);
  return cv_.WaitFor(lock, timeout, [this]() REQUIRES(mu_) { return stop_; });
}

void ClusterRuntime::Run() {
  spdlog::info(
      "cluster mode: pods of node {} from the API server, polled "
      "every {} ms",
      options_.node_name, options_.poll_interval.count());
  while (!StopRequested()) {
    PluginLost();
    Poll();
    if (!plugin_ && listed_ && !StopRequested()) {
      // AcceptPlugin waits; with a plugin, waiting pods are created at once.
      AcceptPlugin();
      continue;
    }
    WaitForStop(options_.poll_interval);
  }
  if (plugin_) {
    plugin_->Close();
    plugin_.reset();
  }
}

void ClusterRuntime::NoteOutage(const Status& status) {
  if (outage_) return;
  outage_ = true;
  spdlog::warn("API server unavailable ({}); pods wait, polling every {} ms",
               status.ToString(), options_.poll_interval.count());
}

bool ClusterRuntime::Poll() {
  kube::ListOptions list_options;
  list_options.field_selector = "spec.nodeName=" + options_.node_name;
  StatusOr<kube::ObjectList> list =
      client_->List(kube::Resource::Pods(), "", list_options);
  if (!list.ok()) {
    NoteOutage(list.status());
    return false;
  }
  if (outage_) {
    outage_ = false;
    spdlog::info("API server reachable again");
  }
  listed_ = true;
  std::set<std::string> seen;
  for (const nlohmann::json& pod : list->items) {
    const std::string uid = kube::StringAt(pod, {"metadata", "uid"});
    if (uid.empty()) continue;
    seen.insert(uid);
    auto known = pods_.find(uid);
    if (known == pods_.end() &&
        kube::StringAt(pod, {"status", "phase"}) == "Running") {
      Adopt(uid, pod);
      continue;
    }
    if (plugin_ == nullptr || !Ready(pod)) continue;
    if (known != pods_.end() && known->second.running) continue;
    StartPod(uid, pod);
    if (PluginLost()) break;
  }
  for (auto it = pods_.begin(); it != pods_.end();) {
    if (seen.count(it->first) != 0) {
      ++it;
      continue;
    }
    spdlog::info("pod {} is gone", it->second.key);
    const std::string prefix = it->first + "/";
    for (auto e = errors_.lower_bound(prefix);
         e != errors_.end() && e->first.rfind(prefix, 0) == 0;) {
      e = errors_.erase(e);
    }
    it = pods_.erase(it);
  }
  return true;
}

void ClusterRuntime::Adopt(const std::string& uid, const nlohmann::json& pod) {
  PodState state;
  state.key = kube::NamespaceOf(pod) + "/" + kube::NameOf(pod);
  state.sandbox = SandboxFromPod(pod);
  state.sandbox_started = true;
  for (const nlohmann::json& c : AppContainers(pod)) {
    api::Container container = ContainerFromPod(state.sandbox, c);
    container.set_state(api::CONTAINER_RUNNING);
    state.containers.push_back(std::move(container));
  }
  state.running = true;
  spdlog::info("pod {} is already Running: taken as created ({} containers)",
               state.key, state.containers.size());
  pods_[uid] = std::move(state);
}

void ClusterRuntime::StartPod(const std::string& uid,
                              const nlohmann::json& pod) {
  PodState& state = pods_[uid];
  if (!state.sandbox_started) {
    state.key = kube::NamespaceOf(pod) + "/" + kube::NameOf(pod);
    state.sandbox = SandboxFromPod(pod);
    Status s = plugin_->SendEvent(api::RUN_POD_SANDBOX, state.sandbox, nullptr);
    if (!s.ok()) {
      if (PluginLost()) return;
      spdlog::warn("RunPodSandbox {}: plugin answered {}", state.key,
                   s.ToString());
    }
    state.sandbox_started = true;
  }
  const nlohmann::json& containers = AppContainers(pod);
  for (const nlohmann::json& spec : containers) {
    const std::string name = kube::StringAt(spec, {"name"});
    bool exists = false;
    for (const api::Container& c : state.containers) {
      if (c.name() == name) exists = true;
    }
    if (exists) continue;
    api::Container container = ContainerFromPod(state.sandbox, spec);
    StatusOr<api::CreateContainerResponse> response =
        plugin_->CreateContainer(state.sandbox, container);
    std::string error_key = uid;
    error_key += "/";
    error_key += name;
    if (!response.ok()) {
      if (PluginLost()) return;
      PrintErrorOnce(error_key, state.key, name, response.status().ToString());
      continue;
    }
    errors_.erase(error_key);
    api::Container created = ApplyAdjustment(container, response->adjust());
    nlohmann::ordered_json line;
    line["pod"] = state.key;
    line["container"] = name;
    line["spec"] = ContainerSpecJson(created);
    Print(line.dump());
    spdlog::info("created container {} of pod {}", name, state.key);
    // containerd's events after creation, for plugins that subscribed.
    created.set_state(api::CONTAINER_CREATED);
    for (api::Event event : {api::POST_CREATE_CONTAINER, api::START_CONTAINER,
                             api::POST_START_CONTAINER}) {
      if (event == api::START_CONTAINER) {
        created.set_state(api::CONTAINER_RUNNING);
      }
      Status s = plugin_->SendEvent(event, state.sandbox, &created);
      if (!s.ok()) {
        if (PluginLost()) break;
        spdlog::warn("event {} for {}/{}: {}", api::Event_Name(event),
                     state.key, name, s.ToString());
      }
    }
    created.set_state(api::CONTAINER_RUNNING);
    state.containers.push_back(std::move(created));
    if (plugin_ == nullptr) return;
  }
  if (state.containers.size() < containers.size()) return;
  MarkRunning(uid, state);
}

void ClusterRuntime::MarkRunning(const std::string& uid, PodState& state) {
  const std::string now = kube::FormatRfc3339(clock_->Now());
  nlohmann::json statuses = nlohmann::json::array();
  for (const api::Container& c : state.containers) {
    const auto& a = c.annotations();
    auto image = a.find("io.kubernetes.cri.image-name");
    statuses.push_back({{"name", c.name()},
                        {"ready", true},
                        {"started", true},
                        {"restartCount", 0},
                        {"image", image == a.end() ? "" : image->second},
                        {"containerID", "containerd://" + c.id()},
                        {"state", {{"running", {{"startedAt", now}}}}}});
  }
  nlohmann::json patch = {{"status",
                           {{"phase", "Running"},
                            {"startTime", now},
                            {"containerStatuses", statuses}}}};
  const auto slash = state.key.find('/');
  StatusOr<nlohmann::json> patched = client_->Patch(
      kube::Resource::Pods(), state.key.substr(0, slash),
      state.key.substr(slash + 1), kube::PatchType::kMerge, patch, "status");
  if (!patched.ok()) {
    if (patched.status().http_code() == 0) {
      NoteOutage(patched.status());
    } else {
      const std::string key = uid + "/status";
      if (errors_[key] != patched.status().ToString()) {
        errors_[key] = patched.status().ToString();
        spdlog::warn("marking pod {} Running: {}", state.key,
                     patched.status().ToString());
      }
    }
    return;
  }
  errors_.erase(uid + "/status");
  state.running = true;
  spdlog::info("pod {} is Running", state.key);
  Print("running " + state.key);
}

void ClusterRuntime::PrintErrorOnce(const std::string& key,
                                    const std::string& pod,
                                    const std::string& container,
                                    const std::string& error) {
  auto [it, inserted] = errors_.emplace(key, error);
  if (!inserted) {
    if (it->second == error) return;
    it->second = error;
  }
  spdlog::warn("container {} of pod {} not created: {}", container, pod, error);
  nlohmann::ordered_json line;
  line["pod"] = pod;
  line["container"] = container;
  line["error"] = error;
  Print(line.dump());
}

bool ClusterRuntime::PluginLost() {
  if (plugin_ == nullptr || !plugin_->closed()) return false;
  spdlog::warn("plugin {} disconnected; pods wait for the next plugin",
               plugin_->plugin_name());
  Print("plugin " + plugin_->plugin_name() + " disconnected");
  plugin_.reset();
  return true;
}

SyncState ClusterRuntime::CurrentState() const {
  SyncState state;
  for (const auto& [uid, pod] : pods_) {
    if (!pod.sandbox_started) continue;
    state.pods.push_back(pod.sandbox);
    for (const api::Container& c : pod.containers) {
      state.containers.push_back(c);
    }
  }
  return state;
}

bool ClusterRuntime::AcceptPlugin() {
  StatusOr<Fd> fd = runtime_->AcceptRaw(options_.poll_interval);
  if (!fd.ok()) {
    if (fd.status().code() != StatusCode::kDeadlineExceeded) {
      spdlog::warn("accepting a plugin: {}", fd.status().ToString());
      WaitForStop(options_.poll_interval);
    }
    return false;
  }
  auto plugin =
      std::make_unique<PluginConnection>(std::move(*fd), runtime_->options());
  SyncState state = CurrentState();
  if (Status s = plugin->Handshake(state); !s.ok()) {
    spdlog::warn("plugin handshake failed: {}", s.ToString());
    return false;
  }
  char events[16];
  std::snprintf(events, sizeof(events), "0x%x", plugin->events());
  Print("plugin " + plugin->plugin_name() + " (index " +
        plugin->plugin_index() + ") registered, events " + events);
  Print("synchronized " + std::to_string(state.pods.size()) + " pods " +
        std::to_string(state.containers.size()) + " containers");
  spdlog::info("plugin {} (index {}) synchronized with {} pods, {} containers",
               plugin->plugin_name(), plugin->plugin_index(), state.pods.size(),
               state.containers.size());
  plugin_ = std::move(plugin);
  return true;
}

}  // namespace gcushare::nri_runtime
