#include "tests/dra/dra_cluster.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "contract/names.h"
#include "kube/config.h"
#include "testing/eventually.h"
#include "testing/files.h"
#include "testing/kubeconfig.h"

namespace gcushare::testing {
namespace {

using nlohmann::json;

constexpr char kNamespace[] = "demo";

// A fresh directory with a short path (unix socket paths must stay under
// 108 bytes); unique across processes, which in a sandbox may share a pid.
std::string ShortDir() {
  char pattern[] = "/tmp/gdra-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) return "/tmp/gdra-unusable";
  return pattern;
}

std::string FakeCards(const DraClusterOptions& options) {
  std::string yaml = "cards:\n";
  for (int i = 0; i < options.cards; ++i) {
    yaml += "- {index: " + std::to_string(i) + ", uuid: GCU-U00000000" +
            std::to_string(10 + i) +
            ", memoryMiB: " + std::to_string(options.card_mib) +
            ", numa: " + std::to_string(i % 2) + "}\n";
  }
  return yaml;
}

// The chart's DeviceClasses (templates/deviceclass.yaml).
std::vector<json> DeviceClasses() {
  json selector = {
      {{"cel", {{"expression", "device.driver == \"gcu.enflame.com\""}}}}};
  return {
      {{"apiVersion", "resource.k8s.io/v1"},
       {"kind", "DeviceClass"},
       {"metadata", {{"name", contract::kDraDeviceClass}}},
       {"spec", {{"selectors", selector}}}},
      {{"apiVersion", "resource.k8s.io/v1"},
       {"kind", "DeviceClass"},
       {"metadata", {{"name", contract::kDraWholeCardDeviceClass}}},
       {"spec",
        {{"selectors", selector},
         {"extendedResourceName", contract::kResourceCount}}}},
  };
}

// Device nodes of fake cards do not exist on this host: the runtime
// stand-in is told they are character devices 240:<index>.
StatusOr<peers::cdi_runtime::HostDeviceInfo> FakeDeviceInfo(
    const std::string& path) {
  peers::cdi_runtime::HostDeviceInfo info;
  info.type = "c";
  info.major = 240;
  if (path.rfind("/dev/gcu", 0) == 0) {
    try {
      info.minor = std::stoi(path.substr(8));
    } catch (...) {
      info.minor = 0;
    }
  }
  return info;
}

}  // namespace

DraCluster::DraCluster(DraClusterOptions options)
    : options_(std::move(options)), dir_(ShortDir()) {}

DraCluster::~DraCluster() {
  if (kubelet_) kubelet_->Stop();
  if (driver_) (void)StopDriver();
  if (server_) server_->Stop();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::string DraCluster::checkpoint_path() const {
  return kubelet_root() + "/plugins/gcu.enflame.com/checkpoint.json";
}

Status DraCluster::Start() {
  for (const std::string& sub : {std::string("/cdi"), std::string("/logs"),
                                 std::string("/kubelet/plugins_registry"),
                                 std::string("/kubelet/plugins")}) {
    std::filesystem::create_directories(dir_ + sub);
  }
  WriteFileOrDie(dir_ + "/cards.yaml", FakeCards(options_));
  apiserver::ServerOptions server_options;
  server_options.feature_gates.dra_consumable_capacity =
      options_.consumable_capacity_gate;
  server_options.kube_version = "v1.36.3";
  GCUSHARE_ASSIGN_OR_RETURN(server_,
                            apiserver::ApiServer::Create(server_options));
  GCUSHARE_RETURN_IF_ERROR(server_->Start());
  const std::string kubeconfig = WriteKubeconfig(dir_, server_->port());
  GCUSHARE_ASSIGN_OR_RETURN(kube::ClientConfig config,
                            kube::ResolveConfig(kubeconfig));
  GCUSHARE_ASSIGN_OR_RETURN(client_, kube::CurlKubeClient::Create(config));

  json node = {{"apiVersion", "v1"},
               {"kind", "Node"},
               {"metadata",
                {{"name", options_.node_name},
                 {"labels",
                  {{contract::kSharingNodeLabel, "true"},
                   {contract::kModeNodeLabel, contract::kModeNodeLabelDra}}}}},
               {"status",
                {{"allocatable",
                  {{"cpu", "64"}, {"memory", "256Gi"}, {"pods", "110"}}}}}};
  GCUSHARE_RETURN_IF_ERROR(
      client_->Create(kube::Resource::Nodes(), "", node).status());
  for (const json& cls : DeviceClasses()) {
    GCUSHARE_RETURN_IF_ERROR(
        client_->Create(kube::Resource::DeviceClasses(), "", cls).status());
  }
  scheduler_ = std::make_unique<dra_scheduler::DraScheduler>(
      client_.get(), &share_ids_, &clock_);
  GCUSHARE_RETURN_IF_ERROR(StartDriver());
  GCUSHARE_RETURN_IF_ERROR(StartKubelet());
  return WaitForSlices(static_cast<size_t>(options_.cards));
}

Status DraCluster::StartDriver() {
  driver_ = std::make_unique<ChildProcess>();
  // GCUSHARE_DRA_DRIVER names another build of the driver (the benchmark
  // runs the -c opt one).
  const char* other = std::getenv("GCUSHARE_DRA_DRIVER");
  GCUSHARE_RETURN_IF_ERROR(driver_->Start({
      other != nullptr && *other != '\0'
          ? std::string(other)
          : RunfilePath("dra-driver/gcushare-dra-driver"),
      "--kubeconfig=" + dir_ + "/kubeconfig",
      "--node-name=" + options_.node_name,
      "--kubelet-root=" + kubelet_root(),
      "--cdi-dir=" + cdi_dir(),
      "--fake-cards=" + dir_ + "/cards.yaml",
      "--memory-unit=" + options_.memory_unit,
      "--health-interval=0.2",
      "--log-dir=" + dir_ + "/logs",
      "--log-level=debug",
  }));
  return driver_->WaitForOutput("ready on node", std::chrono::seconds(30));
}

StatusOr<ProcessResult> DraCluster::StopDriver(bool kill) {
  if (!driver_) return FailedPreconditionError("no driver");
  GCUSHARE_RETURN_IF_ERROR(driver_->Signal(kill ? SIGKILL : SIGTERM));
  StatusOr<ProcessResult> result = driver_->Wait(std::chrono::seconds(30));
  driver_.reset();
  return result;
}

Status DraCluster::StartKubelet() {
  peers::dra_kubelet::DraKubeletOptions options;
  options.node_name = options_.node_name;
  options.registry_dir = kubelet_root() + "/plugins_registry";
  options.cdi_dirs = {cdi_dir()};
  options.clock = &clock_;
  options.kube = client_.get();
  options.max_reconnect_backoff_ms = 200;
  options.device_info = FakeDeviceInfo;
  if (kubelet_) {
    options.checkpoint = kubelet_->Claims();
    kubelet_->Stop();
  }
  kubelet_ = std::make_unique<peers::dra_kubelet::StandInDraKubelet>(options);
  GCUSHARE_RETURN_IF_ERROR(kubelet_->Start());
  const bool registered = WaitFor([&] {
    for (const auto& plugin : kubelet_->View().plugins) {
      if (plugin.driver_name == contract::kDraDriverName && plugin.connected) {
        return true;
      }
    }
    return false;
  });
  if (!registered) {
    return UnavailableError("the stand-in kubelet did not register the driver");
  }
  // The kubelet deletes the node's slices when it starts; callers wait for
  // the driver to publish them again (WaitForSlices), which only means
  // something once that wipe is done.
  const std::string startup_wipe = "spec.nodeName=" + options_.node_name;
  const bool wiped = WaitFor([&] {
    for (const std::string& wipe : kubelet_->View().wipes) {
      if (wipe == startup_wipe) return true;
    }
    return false;
  });
  if (!wiped) {
    return UnavailableError("the stand-in kubelet did not wipe the slices");
  }
  return OkStatus();
}

Status DraCluster::RestartKubelet() {
  GCUSHARE_RETURN_IF_ERROR(StartKubelet());
  return WaitForSlices(static_cast<size_t>(options_.cards));
}

Status DraCluster::CreateClaimTemplate(const std::string& name,
                                       const std::string& memory) {
  json exactly = {{"deviceClassName", contract::kDraDeviceClass}};
  if (!memory.empty()) {
    exactly["capacity"] = {{"requests", {{"memory", memory}}}};
  }
  json tmpl = {
      {"apiVersion", "resource.k8s.io/v1"},
      {"kind", "ResourceClaimTemplate"},
      {"metadata", {{"name", name}, {"namespace", kNamespace}}},
      {"spec",
       {{"spec",
         {{"devices",
           {{"requests", {{{"name", "gcu"}, {"exactly", exactly}}}}}}}}}}};
  return client_
      ->Create(kube::Resource::ResourceClaimTemplates(), kNamespace, tmpl)
      .status();
}

Status DraCluster::CreatePodWithTemplate(const std::string& pod,
                                         const std::string& claim_template) {
  json object = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", pod}, {"namespace", kNamespace}}},
      {"spec",
       {{"resourceClaims",
         {{{"name", "gcu"}, {"resourceClaimTemplateName", claim_template}}}},
        {"containers",
         {{{"name", "main"},
           {"image", "busybox"},
           {"resources", {{"claims", {{{"name", "gcu"}}}}}}}}}}}};
  return client_->Create(kube::Resource::Pods(), kNamespace, object).status();
}

Status DraCluster::CreatePodWithCardCount(const std::string& pod, int count) {
  json limits = {{contract::kResourceCount, std::to_string(count)}};
  json object = {{"apiVersion", "v1"},
                 {"kind", "Pod"},
                 {"metadata", {{"name", pod}, {"namespace", kNamespace}}},
                 {"spec",
                  {{"containers",
                    {{{"name", "main"},
                      {"image", "busybox"},
                      {"resources", {{"limits", limits}}}}}}}}};
  return client_->Create(kube::Resource::Pods(), kNamespace, object).status();
}

StatusOr<std::vector<dra_scheduler::PodOutcome>> DraCluster::SchedulePending() {
  return scheduler_->SchedulePending();
}

StatusOr<json> DraCluster::GetPod(const std::string& pod) {
  return client_->Get(kube::Resource::Pods(), kNamespace, pod);
}

StatusOr<json> DraCluster::GetClaimOf(const std::string& pod) {
  GCUSHARE_ASSIGN_OR_RETURN(json object, GetPod(pod));
  const json statuses = object.value("status", json::object())
                            .value("resourceClaimStatuses", json::array());
  std::string name;
  for (const json& s : statuses) name = s.value("resourceClaimName", "");
  const json extended = object.value("status", json::object())
                            .value("extendedResourceClaimStatus", json());
  if (name.empty() && extended.is_object()) {
    name = extended.value("resourceClaimName", "");
  }
  if (name.empty()) return NotFoundError("pod " + pod + " has no claim");
  return client_->Get(kube::Resource::ResourceClaims(), kNamespace, name);
}

StatusOr<std::vector<json>> DraCluster::Slices() {
  kube::ListOptions options;
  options.field_selector =
      "spec.nodeName=" + options_.node_name +
      ",spec.driver=" + std::string(contract::kDraDriverName);
  GCUSHARE_ASSIGN_OR_RETURN(
      kube::ObjectList list,
      client_->List(kube::Resource::ResourceSlices(), "", options));
  return list.items;
}

StatusOr<std::vector<json>> DraCluster::NodeEvents() {
  kube::ListOptions options;
  options.field_selector =
      "involvedObject.kind=Node,involvedObject.name=" + options_.node_name;
  GCUSHARE_ASSIGN_OR_RETURN(
      kube::ObjectList list,
      client_->List(kube::Resource::Events(), "", options));
  return list.items;
}

StatusOr<peers::dra_kubelet::PodRun> DraCluster::RunPod(
    const std::string& pod) {
  GCUSHARE_ASSIGN_OR_RETURN(json object, GetPod(pod));
  return kubelet_->RunPod(object);
}

Status DraCluster::StopPod(const std::string& pod) {
  GCUSHARE_ASSIGN_OR_RETURN(json object, GetPod(pod));
  return kubelet_->StopPod(object);
}

Status DraCluster::DeletePod(const std::string& pod) {
  return client_->Delete(kube::Resource::Pods(), kNamespace, pod,
                         kube::DeleteOptions{.grace_period_seconds = 0});
}

bool DraCluster::WaitFor(const std::function<bool()>& done,
                         std::chrono::milliseconds limit) {
  return Eventually(done, limit);
}

Status DraCluster::WaitForSlices(size_t devices) {
  size_t last = 0;
  const bool ok = WaitFor([&] {
    StatusOr<std::vector<json>> slices = Slices();
    if (!slices.ok()) return false;
    size_t count = 0;
    for (const json& slice : *slices) {
      count += slice["spec"].value("devices", json::array()).size();
    }
    last = count;
    return count == devices;
  });
  if (!ok) {
    return DeadlineExceededError("the node's slices hold " +
                                 std::to_string(last) + " devices, not " +
                                 std::to_string(devices));
  }
  return OkStatus();
}

}  // namespace gcushare::testing
