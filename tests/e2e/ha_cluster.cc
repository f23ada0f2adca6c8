#include "tests/e2e/ha_cluster.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <thread>

#include "extender/testing/objects.h"
#include "testing/files.h"
#include "testing/free_port.h"
#include "testing/kubeconfig.h"
#include "testing/subprocess.h"
#include "tests/extender/harness.h"

namespace gcushare::e2e {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;
using std::chrono::seconds;

std::string SchedulerConfig(int port) {
  return "apiVersion: kubescheduler.config.k8s.io/v1\n"
         "kind: KubeSchedulerConfiguration\n"
         "leaderElection:\n  leaderElect: false\n"
         "profiles:\n- schedulerName: default-scheduler\n"
         "extenders:\n"
         "- urlPrefix: http://127.0.0.1:" +
         std::to_string(port) +
         "/gcushare-scheduler\n"
         "  filterVerb: filter\n  prioritizeVerb: prioritize\n"
         "  bindVerb: bind\n  weight: 1\n  enableHTTPS: false\n"
         "  nodeCacheCapable: true\n  ignorable: false\n"
         "  httpTimeout: 30s\n"
         "  managedResources:\n  - name: enflame.com/gcu-memory\n"
         "    ignoredByScheduler: false\n";
}

}  // namespace

HaCluster::HaCluster() = default;

HaCluster::~HaCluster() { Stop(); }

Status HaCluster::Start(HaClusterOptions options) {
  options_ = std::move(options);
  dir_ = testing::MakeTempDir();
  kubeconfig_ = testing::WriteKubeconfig(dir_, api_.port());
  const std::string memory =
      std::to_string(options_.cards * options_.card_units);
  const std::string cards = std::to_string(options_.cards);
  for (const std::string& node : options_.nodes) {
    auto r = api_.Post("/api/v1/nodes",
                       extender::testing::SharingNode(node, options_.cards,
                                                      options_.card_units)
                           .dump());
    if (r.status != 201) return InternalError("node " + node + ": " + r.body);
    // What the device plugin reports.
    const json resources = {{"enflame.com/gcu-memory", memory},
                            {"enflame.com/gcu-count", cards},
                            {"cpu", "64"},
                            {"memory", "256Gi"},
                            {"pods", "500"}};
    const json status = {
        {"status", {{"capacity", resources}, {"allocatable", resources}}}};
    r = api_.Patch("/api/v1/nodes/" + node + "/status", status.dump(),
                   "application/merge-patch+json");
    if (r.status != 200) return InternalError("node status: " + r.body);
  }
  front_ = std::make_unique<RoundRobinFront>(
      options_.replicas, "/gcushare-scheduler/healthz", milliseconds(200));
  GCUSHARE_RETURN_IF_ERROR(front_->Start());
  for (int i = 0; i < options_.replicas; ++i) {
    extenders_.push_back(std::make_unique<Component>(
        "extender-" + std::to_string(i),
        dir_ + "/extender-" + std::to_string(i) + ".out"));
    ports_.push_back(testing::FreeTcpPort());
    GCUSHARE_RETURN_IF_ERROR(StartExtender(i));
  }
  const std::string config = dir_ + "/scheduler.yaml";
  std::FILE* f = std::fopen(config.c_str(), "w");
  if (f == nullptr) return InternalError("cannot write " + config);
  const std::string text = SchedulerConfig(front_->port());
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  scheduler_ =
      std::make_unique<Component>("scheduler", dir_ + "/scheduler.out");
  GCUSHARE_RETURN_IF_ERROR(scheduler_->Start(
      {testing::RunfilePath("tests/peers/scheduler/scheduler"),
       "--kubeconfig=" + kubeconfig_, "--config=" + config,
       "--pod-max-in-unschedulable-pods-duration=" + options_.max_unschedulable,
       "--log-dir=" + dir_ + "/logs"}));
  return scheduler_->WaitForOutput(": ready", seconds(30));
}

Status HaCluster::StartExtender(int i) {
  front_->SetPort(i, 0);
  std::vector<std::string> argv = {
      testing::RunfilePath("extender/gcushare-scheduler-extender"),
      "--kubeconfig=" + kubeconfig_,
      "--address=127.0.0.1",
      "--port=" + std::to_string(ports_[i]),
      "--log-dir=" + dir_ + "/logs",
      "--leader-elect=true",
      "--leader-elect-resource-namespace=default"};
  argv.insert(argv.end(), options_.extender_flags.begin(),
              options_.extender_flags.end());
  GCUSHARE_RETURN_IF_ERROR(extenders_[i]->Start(argv));
  GCUSHARE_RETURN_IF_ERROR(
      extenders_[i]->WaitForOutput("listening on", seconds(30)));
  const auto deadline = std::chrono::steady_clock::now() + seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    if (testing::HttpGet(ports_[i], "/gcushare-scheduler/healthz").status ==
        200) {
      front_->SetPort(i, ports_[i]);
      return OkStatus();
    }
    std::this_thread::sleep_for(milliseconds(20));
  }
  return DeadlineExceededError("extender " + std::to_string(i) +
                               " never ready");
}

void HaCluster::KillExtender(int i) {
  front_->SetPort(i, 0);
  extenders_[i]->Kill();
}

StatusOr<int> HaCluster::StopExtender(int i) {
  return extenders_[i]->Stop(seconds(30));
}

int HaCluster::Binder() {
  for (int i = 0; i < options_.replicas; ++i) {
    auto a = testing::HttpGet(ports_[i], "/gcushare-scheduler/inspect/leader");
    if (a.status != 200) continue;
    auto role = json::parse(a.body, nullptr, false);
    if (role.is_object() && role.value("binder", false)) return i;
  }
  return -1;
}

void HaCluster::Stop() {
  if (scheduler_ != nullptr) (void)scheduler_->Stop(seconds(10));
  scheduler_.reset();
  for (auto& e : extenders_) e->Kill();
  extenders_.clear();
  if (front_ != nullptr) front_->Stop();
}

}  // namespace gcushare::e2e
