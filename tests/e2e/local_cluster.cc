#include "tests/e2e/local_cluster.h"

#include <httplib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "contract/names.h"
#include "kube/config.h"
#include "kube/curl_kube_client.h"
#include "kube/json_fields.h"
#include "kube/resource.h"
#include "testing/files.h"
#include "testing/subprocess.h"
#include "tests/e2e/pods.h"
#include "tests/extender/harness.h"

namespace gcushare::e2e {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::seconds;
constexpr auto kStartTimeout = seconds(60);
constexpr auto kPoll = std::chrono::milliseconds(50);

// The number at the end of "listening on http://127.0.0.1:<port>".
int ListeningPort(const std::string& output) {
  static const std::regex kListening(R"(listening on http://[0-9.]+:(\d+))");
  std::smatch match;
  if (!std::regex_search(output, match, kListening)) return 0;
  return std::stoi(match[1]);
}

Status WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  out.close();
  if (!out) return InternalError("cannot write " + path);
  return OkStatus();
}

// docs/contracts.md's kube-scheduler configuration (configs/scheduler/),
// pointing at the extender's port on this machine.
std::string SchedulerConfigText(int extender_port) {
  return "apiVersion: kubescheduler.config.k8s.io/v1\n"
         "kind: KubeSchedulerConfiguration\n"
         "leaderElection:\n  leaderElect: false\n"
         "profiles:\n- schedulerName: default-scheduler\n"
         "extenders:\n"
         "- urlPrefix: http://127.0.0.1:" +
         std::to_string(extender_port) +
         std::string(contract::kExtenderPathPrefix) +
         "\n"
         "  filterVerb: filter\n"
         "  prioritizeVerb: prioritize\n"
         "  bindVerb: bind\n"
         "  weight: 1\n"
         "  enableHTTPS: false\n"
         "  nodeCacheCapable: true\n"
         "  ignorable: false\n"
         "  httpTimeout: 30s\n"
         "  managedResources:\n"
         "  - name: enflame.com/gcu-memory\n"
         "    ignoredByScheduler: false\n"
         "  - name: enflame.com/gcu-count\n"
         "    ignoredByScheduler: false\n";
}

// One directory per card node: <root>/dev/gcuN, a symlink to /dev/null (a
// character device the NRI plugin can stat, as on a host with the driver).
Status MakeDeviceNodes(const std::string& root, int cards) {
  std::filesystem::create_directories(root + "/dev");
  for (int i = 0; i < cards; ++i) {
    const std::string path = root + "/dev/gcu" + std::to_string(i);
    ::unlink(path.c_str());
    if (::symlink("/dev/null", path.c_str()) != 0) {
      return ErrnoToStatus(errno, "symlink " + path);
    }
  }
  return OkStatus();
}

int CountCards(const std::string& cards_file) {
  std::ifstream in(cards_file);
  std::string line;
  int cards = 0;
  while (std::getline(in, line)) {
    if (line.rfind("- index:", 0) == 0) ++cards;
  }
  return cards;
}

}  // namespace

const char* PieceName(Piece piece) {
  switch (piece) {
    case Piece::kApiserver:
      return "apiserver";
    case Piece::kExtender:
      return "extender";
    case Piece::kScheduler:
      return "scheduler";
    case Piece::kKubelet:
      return "kubelet";
    case Piece::kDevicePlugin:
      return "device-plugin";
    case Piece::kNriRuntime:
      return "nri-runtime";
    case Piece::kNriPlugin:
      return "nri-plugin";
  }
  return "?";
}

LocalCluster::LocalCluster(ClusterOptions options)
    : options_(std::move(options)) {}

LocalCluster::~LocalCluster() {
  (void)Stop();
  if (made_work_dir_ && !options_.keep_work_dir) {
    std::error_code ignored;
    std::filesystem::remove_all(options_.work_dir, ignored);
  }
}

std::string LocalCluster::Binary(const std::string& path) const {
  if (!options_.runfiles_root.empty()) {
    return options_.runfiles_root + "/" + path;
  }
  return testing::RunfilePath(path);
}

std::string LocalCluster::apiserver_url() const {
  return "http://127.0.0.1:" + std::to_string(apiserver_port_);
}

std::string LocalCluster::extender_url() const {
  return "http://127.0.0.1:" + std::to_string(extender_port_) +
         std::string(contract::kExtenderPathPrefix);
}

StatusOr<std::unique_ptr<LocalCluster>> LocalCluster::Start(
    ClusterOptions options) {
  std::unique_ptr<LocalCluster> cluster(new LocalCluster(std::move(options)));
  ClusterOptions& o = cluster->options_;
  // Debugging a failed test: bazel test --test_env=GCUSHARE_E2E_KEEP=1.
  if (std::getenv("GCUSHARE_E2E_KEEP") != nullptr) o.keep_work_dir = true;
  if (o.cards_file.empty())
    o.cards_file = cluster->Binary("configs/fake-cards.yaml");
  if (o.work_dir.empty()) {
    char pattern[] = "/tmp/gcushare-e2e.XXXXXX";
    if (::mkdtemp(pattern) == nullptr) {
      return ErrnoToStatus(errno, "mkdtemp /tmp/gcushare-e2e.XXXXXX");
    }
    o.work_dir = pattern;
    cluster->made_work_dir_ = true;
  }
  for (const char* dir : {"logs", "out", "dp", "cdi", "nri", "root"}) {
    std::filesystem::create_directories(o.work_dir + "/" + dir);
  }
  const int cards = CountCards(o.cards_file);
  if (cards == 0) {
    return InvalidArgumentError("no cards in " + o.cards_file);
  }
  GCUSHARE_RETURN_IF_ERROR(MakeDeviceNodes(o.work_dir + "/root", cards));
  for (Piece piece : kAllPieces) {
    cluster->components_[piece] = std::make_unique<Component>(
        PieceName(piece), o.work_dir + "/out/" + PieceName(piece) + ".out");
  }
  // The API server first; everything else talks to it.
  GCUSHARE_RETURN_IF_ERROR(cluster->StartPiece(Piece::kApiserver));
  GCUSHARE_RETURN_IF_ERROR(cluster->CreateNode());
  for (Piece piece :
       {Piece::kKubelet, Piece::kDevicePlugin, Piece::kExtender,
        Piece::kScheduler, Piece::kNriRuntime, Piece::kNriPlugin}) {
    GCUSHARE_RETURN_IF_ERROR(cluster->StartPiece(piece));
  }
  return cluster;
}

std::vector<std::string> LocalCluster::Argv(Piece piece) const {
  const ClusterOptions& o = options_;
  const std::string kubeconfig = "--kubeconfig=" + o.work_dir + "/kubeconfig";
  const std::string logs = "--log-dir=" + log_dir();
  const std::string level = "--log-level=" + o.log_level;
  const std::string node = "--node-name=" + o.node_name;
  switch (piece) {
    case Piece::kApiserver:
      return {Binary("tests/peers/apiserver"),
              "--port=" + std::to_string(apiserver_port_),
              "--state-file=" + apiserver_state_file(), logs, level};
    case Piece::kExtender:
      return {Binary("extender/gcushare-scheduler-extender"),
              kubeconfig,
              "--address=127.0.0.1",
              "--port=" + std::to_string(extender_port_),
              "--policy=" + o.policy,
              logs,
              level};
    case Piece::kScheduler:
      return {Binary("tests/peers/scheduler/scheduler"), kubeconfig,
              "--config=" + o.work_dir + "/scheduler-config.yaml",
              // Kubernetes waits up to 5m before retrying a pod that did not
              // fit when no event woke it; a laptop demo should not.
              "--pod-max-in-unschedulable-pods-duration=5s", logs, level};
    case Piece::kKubelet:
      return {Binary("tests/peers/kubelet/kubelet"),
              "--dir=" + o.work_dir + "/dp",
              "--apiserver=" + apiserver_url(),
              node,
              "--poll-interval=0.1",
              logs,
              level};
    case Piece::kDevicePlugin:
      return {Binary("device-plugin/gcushare-device-plugin"), kubeconfig, node,
              "--memory-unit=" + o.memory_unit, "--fake-cards=" + o.cards_file,
              "--cdi-dir=" + o.work_dir + "/cdi",
              "--device-plugin-dir=" + o.work_dir + "/dp",
              // As the chart runs it beside the NRI plugin.
              "--devices-from-nri=true", "--socket-poll-interval=0.2", logs,
              level};
    case Piece::kNriRuntime:
      return {Binary("tests/peers/nri_runtime/nri-runtime"),
              "--socket=" + o.work_dir + "/nri/nri.sock",
              "--apiserver=" + apiserver_url(),
              node,
              "--poll-interval=0.1",
              logs,
              level};
    case Piece::kNriPlugin:
      return {Binary("nri-plugin/gcushare-nri-plugin"),
              "--nri-socket=" + o.work_dir + "/nri/nri.sock",
              kubeconfig,
              node,
              "--dev-root=" + o.work_dir + "/root",
              logs,
              level};
  }
  return {};
}

size_t LocalCluster::Count(Piece piece, const std::string& needle) const {
  const std::string text = components_.at(piece)->Output();
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

Status LocalCluster::StartPiece(Piece piece) {
  // Registrations seen before this start, so that a restart waits for a new
  // one rather than the line of the previous run.
  size_t before = 0;
  if (piece == Piece::kDevicePlugin) {
    before = Count(Piece::kKubelet, "registered enflame.com/gcu-memory");
  } else if (piece == Piece::kNriPlugin) {
    before = Count(Piece::kNriRuntime, "registered");
  }
  std::vector<std::string> argv = Argv(piece);
  if (ever_started_.insert(piece).second) {
    auto extra = options_.first_start_flags.find(piece);
    if (extra != options_.first_start_flags.end()) {
      argv.insert(argv.end(), extra->second.begin(), extra->second.end());
    }
  }
  GCUSHARE_RETURN_IF_ERROR(components_.at(piece)->Start(std::move(argv)));
  if (std::find(started_.begin(), started_.end(), piece) == started_.end()) {
    started_.push_back(piece);
  }
  return WaitReady(piece, before);
}

Status LocalCluster::WaitReady(Piece piece, size_t registrations_before) {
  Component& c = *components_.at(piece);
  switch (piece) {
    case Piece::kApiserver: {
      GCUSHARE_RETURN_IF_ERROR(
          c.WaitForOutput("listening on http://", kStartTimeout));
      if (apiserver_port_ == 0) {
        apiserver_port_ = ListeningPort(c.Output());
        if (apiserver_port_ == 0) {
          return InternalError("no port in the API server's output");
        }
        // <work_dir>/kubeconfig, as the extender tests write it.
        testing::WriteKubeconfig(options_.work_dir, apiserver_port_);
        kube::ClientConfig config;
        config.server = apiserver_url();
        GCUSHARE_ASSIGN_OR_RETURN(client_,
                                  kube::CurlKubeClient::Create(config, {}));
      }
      return OkStatus();
    }
    case Piece::kExtender: {
      GCUSHARE_RETURN_IF_ERROR(c.WaitForOutput(
          std::string(contract::kExtenderPathPrefix) + "\n", kStartTimeout));
      if (extender_port_ == 0) {
        extender_port_ = ListeningPort(c.Output());
        if (extender_port_ == 0) {
          return InternalError("no port in the extender's output");
        }
        GCUSHARE_RETURN_IF_ERROR(
            WriteText(options_.work_dir + "/scheduler-config.yaml",
                      SchedulerConfigText(extender_port_)));
      }
      const auto deadline = Clock::now() + kStartTimeout;
      while (Clock::now() < deadline) {
        auto health = ExtenderGet("/healthz");
        if (health.ok() && health->first == 200) return OkStatus();
        std::this_thread::sleep_for(kPoll);
      }
      return DeadlineExceededError("the extender's cache never synced:\n" +
                                   c.Output());
    }
    case Piece::kScheduler:
      return c.WaitForOutput(": ready\n", kStartTimeout);
    case Piece::kKubelet:
      GCUSHARE_RETURN_IF_ERROR(c.WaitForOutput("listening on", kStartTimeout));
      if (components_.at(Piece::kDevicePlugin)->Running()) {
        // A restarted kubelet: the plugin notices and registers again.
        return c.WaitForOutput("registered enflame.com/gcu-memory",
                               kStartTimeout);
      }
      return OkStatus();
    case Piece::kDevicePlugin: {
      const auto deadline = Clock::now() + kStartTimeout;
      while (Count(Piece::kKubelet, "registered enflame.com/gcu-memory") <=
             registrations_before) {
        if (!c.Running() || Clock::now() > deadline) {
          return UnavailableError(
              "the device plugin did not register with the kubelet:\n" +
              c.Output());
        }
        std::this_thread::sleep_for(kPoll);
      }
      // Its cards are on the node once the layout annotation is there.
      auto node = WaitForNode([](const nlohmann::json& n) {
        return !kube::StringAt(
                    n, {"metadata", "annotations", contract::kNodeDevices})
                    .empty();
      });
      return node.ok() ? OkStatus() : node.status();
    }
    case Piece::kNriRuntime:
      GCUSHARE_RETURN_IF_ERROR(
          c.WaitForOutput("listening on unix:", kStartTimeout));
      if (components_.at(Piece::kNriPlugin)->Running()) {
        return c.WaitForOutput("registered", kStartTimeout);
      }
      return OkStatus();
    case Piece::kNriPlugin: {
      const auto deadline = Clock::now() + kStartTimeout;
      while (Count(Piece::kNriRuntime, "registered") <= registrations_before) {
        if (!c.Running() || Clock::now() > deadline) {
          return UnavailableError(
              "the NRI plugin did not register with the runtime:\n" +
              c.Output() + "\nruntime:\n" +
              components_.at(Piece::kNriRuntime)->Output());
        }
        std::this_thread::sleep_for(kPoll);
      }
      return OkStatus();
    }
  }
  return OkStatus();
}

StatusOr<nlohmann::json> LocalCluster::WaitForNode(
    const std::function<bool(const nlohmann::json&)>& done) {
  const auto deadline = Clock::now() + kStartTimeout;
  std::string last;
  while (Clock::now() < deadline) {
    auto node = client_->Get(kube::Resource::Nodes(), "", options_.node_name);
    if (node.ok()) {
      if (done(*node)) return *node;
      last = node->dump();
    } else {
      last = node.status().ToString();
    }
    std::this_thread::sleep_for(kPoll);
  }
  return DeadlineExceededError("node " + options_.node_name +
                               " never got its cards: " + last);
}

Status LocalCluster::CreateNode() {
  auto created = client_->Create(kube::Resource::Nodes(), "",
                                 MakeNode(options_.node_name));
  if (!created.ok() && created.status().http_code() != 409) {
    return created.status();
  }
  return OkStatus();
}

Status LocalCluster::Stop() {
  std::string failures;
  for (auto it = started_.rbegin(); it != started_.rend(); ++it) {
    Component& c = *components_.at(*it);
    if (!c.Running()) continue;
    auto code = c.Stop();
    if (!code.ok()) {
      failures += "\n" + code.status().ToString();
    } else if (*code != 0) {
      failures += "\n" + c.name() + " exited with code " +
                  std::to_string(*code) + "; see " + c.output_path();
    }
  }
  started_.clear();
  if (Status denied = CheckNoSeccompDenials(); !denied.ok()) {
    failures += "\n" + denied.message();
  }
  if (!failures.empty()) return InternalError("stopping:" + failures);
  return OkStatus();
}

Status LocalCluster::CheckNoSeccompDenials() const {
  // The SIGSYS reporter of daemon/seccomp.h writes this on stderr.
  constexpr std::string_view kDenied = "seccomp: denied system call";
  std::string denials;
  for (const auto& [piece, component] : components_) {
    // The whole file: every run of the component, restarts included.
    const std::string output =
        testing::ReadFileOrEmpty(component->output_path());
    for (size_t at = output.find(kDenied); at != std::string::npos;
         at = output.find(kDenied, at + kDenied.size())) {
      const size_t end = output.find('\n', at);
      denials += "\n" + component->name() + ": " +
                 output.substr(at, end == std::string::npos ? end : end - at);
    }
  }
  if (denials.empty()) return OkStatus();
  return InternalError(
      "a component was denied a system call (add it to "
      "that daemon's syscalls.cc if it needs it):" +
      denials);
}

Status LocalCluster::Restart(Piece piece, bool graceful) {
  Component& c = *components_.at(piece);
  if (graceful) {
    auto code = c.Stop();
    if (!code.ok()) return code.status();
    if (*code != 0) {
      return InternalError(c.name() + " exited with code " +
                           std::to_string(*code) + " on SIGTERM");
    }
  } else {
    c.Kill();
  }
  return StartPiece(piece);
}

Status LocalCluster::Relaunch(Piece piece) {
  Component& c = *components_.at(piece);
  c.Kill();
  return c.Start(Argv(piece));
}

StatusOr<std::pair<int, std::string>> LocalCluster::ExtenderGet(
    const std::string& path) {
  httplib::Client http("127.0.0.1", extender_port_);
  http.set_read_timeout(30, 0);
  auto res =
      http.Get((std::string(contract::kExtenderPathPrefix) + path).c_str());
  if (!res) {
    return UnavailableError("GET " + extender_url() + path + ": " +
                            httplib::to_string(res.error()));
  }
  return std::make_pair(res->status, res->body);
}

Status LocalCluster::CreatePod(const nlohmann::json& pod) {
  return client_->Create(kube::Resource::Pods(), kube::NamespaceOf(pod), pod)
      .status();
}

StatusOr<nlohmann::json> LocalCluster::GetPod(const std::string& ns,
                                              const std::string& name) {
  return client_->Get(kube::Resource::Pods(), ns, name);
}

Status LocalCluster::DeletePod(const std::string& ns, const std::string& name) {
  return client_->Delete(kube::Resource::Pods(), ns, name, {});
}

StatusOr<nlohmann::json> LocalCluster::WaitForPod(
    const std::string& ns, const std::string& name,
    const std::function<bool(const nlohmann::json&)>& done,
    const std::string& what, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  std::string last;
  while (true) {
    auto pod = GetPod(ns, name);
    if (pod.ok()) {
      if (done(*pod)) return *pod;
      last = pod->dump();
    } else {
      last = pod.status().ToString();
    }
    if (Clock::now() > deadline) {
      std::string message = "pod " + ns;
      message += "/";
      message += name;
      message += " never ";
      message += what;
      message += "; last seen: ";
      message += last;
      return DeadlineExceededError(message);
    }
    std::this_thread::sleep_for(kPoll);
  }
}

StatusOr<std::vector<nlohmann::json>> LocalCluster::PodEvents(
    const std::string& ns, const std::string& name) {
  GCUSHARE_ASSIGN_OR_RETURN(
      kube::ObjectList list,
      client_->List(kube::Resource::Events(), ns, kube::ListOptions{}));
  std::vector<nlohmann::json> events;
  for (nlohmann::json& event : list.items) {
    if (kube::StringAt(event, {"involvedObject", "name"}) == name &&
        kube::StringAt(event, {"involvedObject", "kind"}) == "Pod") {
      events.push_back(std::move(event));
    }
  }
  return events;
}

std::vector<CreatedContainer> LocalCluster::CreatedContainers() const {
  std::vector<CreatedContainer> created;
  std::ifstream in(components_.at(Piece::kNriRuntime)->output_path());
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("{\"pod\":", 0) != 0) continue;
    nlohmann::json parsed = nlohmann::json::parse(line, nullptr, false);
    if (parsed.is_discarded()) continue;
    CreatedContainer c;
    c.pod = parsed.value("pod", "");
    c.container = parsed.value("container", "");
    if (parsed.contains("spec")) c.spec = parsed["spec"];
    c.error = parsed.value("error", "");
    created.push_back(std::move(c));
  }
  return created;
}

StatusOr<CreatedContainer> LocalCluster::WaitForContainer(
    const std::string& pod, const std::string& container,
    std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    for (CreatedContainer& c : CreatedContainers()) {
      if (c.pod == pod && c.container == container && c.error.empty()) {
        return std::move(c);
      }
    }
    if (Clock::now() > deadline) {
      std::string message = "the runtime never created container " + container;
      message += " of ";
      message += pod;
      message += "; its output:\n";
      message += components_.at(Piece::kNriRuntime)->Output();
      return DeadlineExceededError(message);
    }
    std::this_thread::sleep_for(kPoll);
  }
}

}  // namespace gcushare::e2e
