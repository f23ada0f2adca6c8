// gcushare-config-manager: adds the GCUShare extender to kube-scheduler's
// configuration on a kubeadm control-plane node and restores the original
// on uninstall. See config_manager.h for what it edits, README.md for
// operation.
//
//   gcushare-config-manager run      apply, re-apply every --resync-period
//                                    (the chart's DaemonSet); SIGTERM
//                                    leaves kube-scheduler configured
//                                    (an upgrade, drain or eviction must
//                                    not let it bind GCU pods without the
//                                    extender)
//   gcushare-config-manager apply    apply once and exit
//   gcushare-config-manager restore  restore once and exit (the chart's
//                                    pre-delete hook on uninstall); leaves
//                                    <state-dir>/uninstalled so that a
//                                    `run` still up stops re-applying
#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "config-manager/api_permissions.h"
#include "config-manager/config_manager.h"
#include "config-manager/file_system.h"
#include "config-manager/kube_version.h"
#include "config-manager/service_url.h"
#include "config-manager/state_lock.h"
#include "config-manager/syscalls.h"
#include "contract/names.h"
#include "daemon/daemon.h"
#include "daemon/version.h"
#include "fs/make_dirs.h"
#include "kube/component_client.h"
#include "kube/config.h"

namespace gcushare::config_manager {
namespace {

struct Flags {
  std::string command = "run";
  ConfigManagerOptions manager;
  std::string kubernetes_version;
  std::string extender_url;
  std::string extender_service;
  int extender_port = contract::kExtenderDefaultPort;
  std::string kubeconfig;
  bool restore_on_exit = false;
  int resync_seconds = 60;
};

void AddFlags(CLI::App& app, Flags* f) {
  app.add_option("command", f->command,
                 "run: apply and keep it applied (SIGTERM leaves it); "
                 "apply: once; restore: put the original files back (on "
                 "uninstall) and stop any run from re-applying")
      ->check(CLI::IsMember({"run", "apply", "restore"}))
      ->capture_default_str();
  app.add_option("--manifest", f->manager.manifest_path,
                 "kube-scheduler's static pod manifest")
      ->capture_default_str();
  app.add_option("--state-dir", f->manager.state_dir,
                 "where the generated configuration (config/) and the "
                 "backups of the original files (backup/) live, on the host")
      ->capture_default_str();
  app.add_option("--kubernetes-version", f->kubernetes_version,
                 "Kubernetes version of the control plane (e.g. 1.28); "
                 "empty: from the kube-scheduler image tag. Chooses the "
                 "KubeSchedulerConfiguration apiVersion.");
  app.add_option("--extender-url", f->extender_url,
                 "the extender's URL prefix as kube-scheduler calls it, e.g. "
                 "http://10.96.0.50:32766/gcushare-scheduler");
  app.add_option("--extender-service", f->extender_service,
                 "<namespace>/<service> of the extender: its cluster IP "
                 "goes into the URL (needs get on that Service)");
  app.add_option("--extender-port", f->extender_port,
                 "the extender Service's port")
      ->capture_default_str()
      ->check(CLI::Range(1, 65535));
  app.add_option("--http-timeout", f->manager.entry.http_timeout,
                 "the extender entry's httpTimeout")
      ->capture_default_str();
  app.add_option("--weight", f->manager.entry.weight,
                 "the extender entry's prioritize weight")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app.add_flag("--rank-plain-pods,!--no-rank-plain-pods",
               f->manager.entry.rank_plain_pods,
               "also add the entry that ranks pods without GCU requests "
               "(prioritize only, for every pod, ignorable; "
               "--no-rank-plain-pods leaves it out)")
      ->capture_default_str();
  app.add_option("--plain-weight", f->manager.entry.plain_weight,
                 "that entry's prioritize weight")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app.add_option("--kubeconfig", f->kubeconfig,
                 "kubeconfig for --extender-service look-ups; absent: the "
                 "in-cluster service account");
  app.add_flag("--restore-on-exit,!--no-restore-on-exit", f->restore_on_exit,
               "run: also restore the original files on SIGTERM/SIGINT "
               "(off: an upgrade or a drain also sends SIGTERM; uninstall "
               "restores through `restore`)")
      ->capture_default_str();
  app.add_option("--resync-period", f->resync_seconds,
                 "run: seconds between re-applying (a kubeadm upgrade "
                 "rewrites the manifest; a new Service IP changes the URL); "
                 "0: apply once and wait")
      ->capture_default_str()
      ->check(CLI::Range(0, 86400));
}

// The extender URL for this round, or an error to retry later.
StatusOr<std::string> ResolveUrl(const Flags& f, kube::KubeClient* client) {
  if (!f.extender_url.empty()) return f.extender_url;
  GCUSHARE_ASSIGN_OR_RETURN(auto ref, ParseServiceRef(f.extender_service));
  return ExtenderUrlFromService(client, ref.first, ref.second, f.extender_port);
}

Status ApplyOnce(const Flags& f, kube::KubeClient* client, FileSystem* fs) {
  ConfigManagerOptions options = f.manager;
  GCUSHARE_ASSIGN_OR_RETURN(options.entry.url_prefix, ResolveUrl(f, client));
  ConfigManager manager(fs, options);
  GCUSHARE_ASSIGN_OR_RETURN(ApplyResult result, manager.Apply());
  if (result.changed) {
    spdlog::info(
        "kube-scheduler now calls the extender at {} ({} in {}; originals "
        "kept in {}/backup)",
        options.entry.url_prefix, result.api_version, result.config_path,
        options.state_dir);
  } else {
    spdlog::debug("kube-scheduler configuration already up to date");
  }
  return Status();
}

// Left by `restore` (uninstall): a `run` still up stops re-applying.
std::string UninstalledMarker(const Flags& f) {
  return f.manager.state_dir + "/uninstalled";
}

// `restore` and `run` hold this across check-and-write (state_lock.h says
// why); the state directory is made first so the lock file can exist.
StatusOr<StateLock> LockState(const Flags& f) {
  GCUSHARE_RETURN_IF_ERROR(fs::MakeDirectories(f.manager.state_dir, 0755));
  return StateLock::Acquire(f.manager.state_dir + "/lock");
}

Status RestoreOnce(const Flags& f, FileSystem* fs) {
  ConfigManager manager(fs, f.manager);
  GCUSHARE_ASSIGN_OR_RETURN(bool restored, manager.Restore());
  if (restored) {
    spdlog::info("restored kube-scheduler's original configuration ({})",
                 f.manager.manifest_path);
  } else {
    spdlog::info("nothing to restore: {} has no GCUShare edits",
                 f.manager.manifest_path);
  }
  return Status();
}

// Parses --kubernetes-version into f->manager; checks that exactly one of
// --extender-url and --extender-service is given where a URL is needed.
Status CheckFlags(Flags* f) {
  if (!f->kubernetes_version.empty()) {
    GCUSHARE_ASSIGN_OR_RETURN(f->manager.kubernetes_version,
                              ParseKubeVersion(f->kubernetes_version));
  }
  const bool needs_url = f->command != "restore";
  if (needs_url && f->extender_url.empty() == f->extender_service.empty()) {
    return InvalidArgumentError(
        "give exactly one of --extender-url and --extender-service");
  }
  return OkStatus();
}

// The API client for --extender-service look-ups; null when no URL is
// needed or --extender-url gives it.
StatusOr<std::unique_ptr<kube::ComponentClient>> ConnectForService(
    const Flags& f) {
  const bool needs_url = f.command != "restore";
  if (!needs_url || f.extender_service.empty()) {
    return std::unique_ptr<kube::ComponentClient>();
  }
  GCUSHARE_RETURN_IF_ERROR(ParseServiceRef(f.extender_service).status());
  GCUSHARE_ASSIGN_OR_RETURN(auto config, kube::ResolveConfig(f.kubeconfig));
  kube::KubeClientOptions options;
  options.http.user_agent =
      std::string(contract::kConfigManagerName) + "/" + std::string(Version());
  return kube::ComponentClient::Connect(
      config, std::string(contract::kConfigManagerName),
      ConfigManagerApiPermissions(), options);
}

// `restore`: the marker first, under the lock: a `run` that takes the lock
// after us sees it and stops; one that held it before us has finished its
// write, which the restore then undoes. A failed restore takes the marker
// back, so nothing changed.
Status RestoreCommand(const Flags& f, FileSystem* fs) {
  GCUSHARE_ASSIGN_OR_RETURN(StateLock lock, LockState(f));
  Status s =
      fs->WriteFile(UninstalledMarker(f),
                    "kube-scheduler restored; `run` does not re-apply\n", 0644);
  if (s.ok()) {
    s = RestoreOnce(f, fs);
    if (!s.ok()) (void)fs->RemoveFile(UninstalledMarker(f));
  }
  return s;
}

// `run`: keeps it applied until told to stop (restoring then only with
// --restore-on-exit).
Status RunCommand(const Flags& f, kube::KubeClient* api, FileSystem* fs,
                  Daemon* daemon) {
  // A new install (or upgrade) starts here: an old uninstall's marker goes.
  GCUSHARE_RETURN_IF_ERROR(fs->RemoveFile(UninstalledMarker(f)));
  spdlog::info(
      "keeping kube-scheduler configured (re-applying every {} s); SIGTERM "
      "leaves it so, `restore` undoes it",
      f.resync_seconds);

  // Errors (Service not there yet, a manifest being rewritten) are retried,
  // quickly at first.
  const auto resync = std::chrono::seconds(f.resync_seconds);
  while (!daemon->shutdown().Requested()) {
    GCUSHARE_ASSIGN_OR_RETURN(StateLock lock, LockState(f));
    if (fs->ReadFile(UninstalledMarker(f)).ok()) {
      spdlog::info(
          "{} exists (restored for uninstall): not re-applying; waiting "
          "for SIGTERM",
          UninstalledMarker(f));
      lock = StateLock();
      daemon->shutdown().Wait();
      break;
    }
    Status s = ApplyOnce(f, api, fs);
    lock = StateLock();  // Released before waiting.
    if (!s.ok()) spdlog::error("apply failed (will retry): {}", s.ToString());
    std::chrono::milliseconds wait = s.ok() ? resync : std::chrono::seconds(5);
    if (s.ok() && resync.count() == 0) {
      daemon->shutdown().Wait();
      break;
    }
    if (daemon->shutdown().WaitFor(wait)) break;
  }
  if (f.restore_on_exit) {
    GCUSHARE_RETURN_IF_ERROR(RestoreOnce(f, fs));
  } else {
    spdlog::info(
        "stopping; kube-scheduler keeps the extender "
        "(--restore-on-exit=false)");
  }
  return OkStatus();
}

int Run(int argc, char** argv) {
  Daemon daemon(std::string(contract::kConfigManagerName),
                "Config manager of GCUShare: adds the scheduler extender to "
                "kube-scheduler's configuration on a kubeadm control-plane "
                "node and restores the original files on uninstall.");
  Flags f;
  AddFlags(daemon.app(), &f);
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (auto s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);
  if (auto s = CheckFlags(&f); !s.ok()) return daemon.Fail(s);
  auto client = ConnectForService(f);
  if (!client.ok()) return daemon.Fail(client.status());
  kube::KubeClient* api = *client != nullptr ? (*client)->api() : nullptr;
  if (auto s = daemon.Confine(ConfigManagerSyscalls()); !s.ok()) {
    return daemon.Fail(s);
  }

  RealFileSystem fs;
  Status s;
  if (f.command == "apply") {
    s = ApplyOnce(f, api, &fs);
  } else if (f.command == "restore") {
    s = RestoreCommand(f, &fs);
  } else {
    s = RunCommand(f, api, &fs, &daemon);
  }
  return s.ok() ? daemon.Finish() : daemon.Fail(s);
}

}  // namespace
}  // namespace gcushare::config_manager

int main(int argc, char** argv) {
  return gcushare::config_manager::Run(argc, argv);
}
