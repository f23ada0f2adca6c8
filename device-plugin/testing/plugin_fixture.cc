#include "device-plugin/testing/plugin_fixture.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

#include "contract/annotations.h"
#include "contract/names.h"
#include "efml/card_source_factory.h"
#include "testing/files.h"

namespace gcushare::deviceplugin::testing {
namespace {

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "plugin fixture: %s\n", what.c_str());
  std::abort();
}

void MakeDir(const std::string& path) {
  if (::mkdir(path.c_str(), 0755) != 0) Die("mkdir " + path);
}

}  // namespace

std::string CardsYaml(uint32_t count, uint64_t memory_mib,
                      const std::vector<uint32_t>& unhealthy) {
  std::string yaml = "cards:\n";
  for (uint32_t i = 0; i < count; ++i) {
    char uuid[32];
    std::snprintf(uuid, sizeof(uuid), "GCU-U%010u", i + 1);
    bool sick = false;
    for (uint32_t u : unhealthy) sick = sick || u == i;
    yaml += "- index: " + std::to_string(i) + "\n  uuid: " + uuid +
            "\n  memoryMiB: " + std::to_string(memory_mib) +
            "\n  numa: " + std::to_string(i / 4) +
            "\n  healthy: " + (sick ? "false" : "true") + "\n";
  }
  return yaml;
}

PluginFixture::PluginFixture(FixtureOptions options)
    : options_(std::move(options)) {
  root_ = gcushare::testing::MakeTempDir();
  plugin_dir_ = root_ + "/dp";
  cdi_dir_ = root_ + "/cdi";
  cards_file_ = root_ + "/cards.yaml";
  state_file_ = root_ + "/api.jsonl";
  MakeDir(plugin_dir_);
  gcushare::testing::WriteFileOrDie(cards_file_, options_.cards_yaml);

  StartApiServer(0);
  port_ = api_->port();

  kube::ClientConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(port_);
  kube::KubeClientOptions client_options;
  client_options.clock = &clock_;
  client_options.retry.max_attempts = 2;
  client_options.retry.backoff = {std::chrono::milliseconds(20),
                                  std::chrono::milliseconds(100), 2.0, 0.0};
  client_options.http.connect_timeout = std::chrono::milliseconds(2000);
  auto client = kube::CurlKubeClient::Create(config, client_options);
  if (!client.ok()) Die(client.status().ToString());
  client_ = std::move(*client);
  nlohmann::json node = {{"apiVersion", "v1"},
                         {"kind", "Node"},
                         {"metadata", {{"name", options_.node}}}};
  auto created = client_->Create(kube::Resource::Nodes(), "", node);
  if (!created.ok()) Die("create node: " + created.status().ToString());

  efml::CardSourceOptions source;
  source.backend = "fake";
  source.fake_cards_file = cards_file_;
  auto made = efml::MakeCardSource(source);
  if (!made.ok()) Die(made.status().ToString());
  source_ = std::move(*made);

  kubelet_ = std::make_unique<peers::kubelet::StandInKubelet>(plugin_dir_);
  if (options_.start_kubelet && !kubelet_->Start().ok()) Die("kubelet");
}

PluginFixture::~PluginFixture() {
  StopPlugin();
  kubelet_.reset();
  api_.reset();
  std::string cmd = "rm -rf '" + root_ + "'";
  if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "cannot rm\n");
}

Status PluginFixture::StartPlugin() {
  PluginConfig config;
  config.node_name = options_.node;
  auto unit = contract::MemoryUnit::Parse(options_.unit);
  if (!unit.ok()) return unit.status();
  config.unit = *unit;
  config.device_plugin_dir = plugin_dir_;
  config.cdi_dir = cdi_dir_;
  config.mode = options_.mode;
  config.devices_from_nri = options_.devices_from_nri;
  config.health_interval = options_.health_interval;
  config.registry = options_.registry;
  config.socket_poll_interval = std::chrono::milliseconds(50);
  config.register_backoff = {std::chrono::milliseconds(50),
                             std::chrono::milliseconds(500), 2.0, 0.0};
  config.node_backoff = {std::chrono::milliseconds(50),
                         std::chrono::milliseconds(500), 2.0, 0.0};
  plugin_ =
      std::make_unique<Plugin>(config, source_.get(), client_.get(), &clock_);
  return plugin_->Start();
}

void PluginFixture::StopPlugin() {
  if (plugin_) plugin_->Stop();
}

void PluginFixture::SetCards(const std::string& yaml) {
  gcushare::testing::WriteFileOrDie(cards_file_, yaml);
  plugin_->health_monitor().PollOnce();
}

nlohmann::json PluginFixture::CreateBoundPod(const BoundPod& pod) {
  contract::CardAssignment a;
  a.cards = {pod.card};
  a.card_memory_units = 16;
  a.assign_time_ns = pod.assign_time_ns;
  a.assigned = false;
  nlohmann::json containers = nlohmann::json::array();
  for (const auto& [name, units] : pod.containers) {
    a.request_units += units;
    a.container_cards[name] = {pod.card};
    containers.push_back({{"name", name},
                          {"image", "busybox:1"},
                          {"resources",
                           {{"limits",
                             {{std::string(contract::kResourceMemory),
                               std::to_string(units)}}}}}});
  }
  nlohmann::json annotations = nlohmann::json::object();
  for (const auto& [k, v] : contract::EncodeAssignment(a)) annotations[k] = v;
  nlohmann::json object = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", pod.name}, {"annotations", annotations}}},
      {"spec", {{"nodeName", options_.node}, {"containers", containers}}}};
  auto created = client_->Create(kube::Resource::Pods(), pod.ns, object);
  if (!created.ok()) Die("create pod: " + created.status().ToString());
  return *created;
}

nlohmann::json PluginFixture::GetPod(const std::string& name,
                                     const std::string& ns) {
  auto pod = client_->Get(kube::Resource::Pods(), ns, name);
  if (!pod.ok()) Die("get pod: " + pod.status().ToString());
  return *pod;
}

nlohmann::json PluginFixture::GetNode() {
  auto node = client_->Get(kube::Resource::Nodes(), "", options_.node);
  if (!node.ok()) Die("get node: " + node.status().ToString());
  return *node;
}

bool PluginFixture::WaitForNode(
    const std::function<bool(const nlohmann::json&)>& predicate,
    std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    auto node = client_->Get(kube::Resource::Nodes(), "", options_.node);
    if (node.ok() && predicate(*node)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

bool PluginFixture::WaitForDevices(size_t count,
                                   std::chrono::milliseconds timeout) {
  const std::string resource(contract::kResourceMemory);
  return kubelet_->WaitUntil(
      [&](const peers::kubelet::KubeletView& view) {
        auto it = view.resources.find(resource);
        return it != view.resources.end() && it->second.streaming &&
               it->second.devices.size() == count;
      },
      timeout);
}

void PluginFixture::StopApiServer() { api_.reset(); }

void PluginFixture::RestartApiServer() { StartApiServer(port_); }

void PluginFixture::StartApiServer(int port) {
  apiserver::ServerOptions api_options;
  api_options.state_file = state_file_;
  api_options.port = port;
  api_options.bookmark_interval = std::chrono::milliseconds(200);
  auto server = apiserver::ApiServer::Create(api_options);
  if (!server.ok()) Die("API server: " + server.status().ToString());
  // The old server's port may linger briefly after it stopped.
  Status started = (*server)->Start();
  for (int i = 0; !started.ok() && i < 100; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    server = apiserver::ApiServer::Create(api_options);
    if (!server.ok()) Die("API server: " + server.status().ToString());
    started = (*server)->Start();
  }
  if (!started.ok()) Die("API server: " + started.ToString());
  api_ = std::move(*server);
}

StatusOr<peers::kubelet::ContainerAllocation> PluginFixture::Allocate(
    uint64_t units) {
  return kubelet_->AllocateContainer(std::string(contract::kResourceMemory),
                                     units);
}

}  // namespace gcushare::deviceplugin::testing
