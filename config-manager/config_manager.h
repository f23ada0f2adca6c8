// ConfigManager: adds GCUShare's extender to kube-scheduler's configuration
// on a kubeadm control-plane node, and puts back exactly what was there.
//
// Apply():
//   - reads the static pod manifest; the first time (no marker annotation)
//     it keeps the manifest's bytes in <state-dir>/backup/kube-scheduler.yaml;
//   - when kube-scheduler runs without --config: writes
//     <state-dir>/config/scheduler-config.yaml with the apiVersion of the
//     Kubernetes version (options, else the image tag), the kubeconfig and
//     leader election of its flags, and our extender; the manifest gets
//     --config, a read-only mount of that directory and the marker;
//   - when it already has a --config file: keeps that file's bytes in
//     <state-dir>/backup/scheduler-config.yaml (its host path beside it),
//     adds our entry to its extenders (others kept), and sets the marker in
//     the manifest so that kubelet restarts kube-scheduler.
//   Every result is computed from the ORIGINAL files (the backups once they
//   exist), so Apply is idempotent: a second run writes nothing. A manifest
//   rewritten without our marker (kubeadm upgrade) is the new original.
// Restore(): writes the backed-up bytes back (configuration file first,
//   then the manifest), removes our configuration and the backups.
//
// Writes are atomic (FileSystem::WriteFile) and ordered so that a crash at
// any point leaves a state the next Apply or Restore completes.
// Ownership: borrows the FileSystem, which must outlive it. Thread-safety:
// one thread. Failure: a Status naming the file; a bad input changes nothing
// (everything is computed before the first write).
#ifndef GCUSHARE_CONFIG_MANAGER_CONFIG_MANAGER_H_
#define GCUSHARE_CONFIG_MANAGER_CONFIG_MANAGER_H_

#include <optional>
#include <string>

#include "config-manager/file_system.h"
#include "config-manager/kube_version.h"
#include "config-manager/scheduler_config.h"
#include "config-manager/scheduler_manifest.h"
#include "status/status.h"

namespace gcushare::config_manager {

struct ConfigManagerOptions {
  std::string manifest_path = "/etc/kubernetes/manifests/kube-scheduler.yaml";
  std::string state_dir = "/etc/kubernetes/gcushare";
  // Unset: from the kube-scheduler image tag.
  std::optional<KubeVersion> kubernetes_version;
  ExtenderEntryOptions entry;
};

struct ApplyResult {
  bool changed = false;     // Something was written.
  std::string api_version;  // Of the configuration kube-scheduler reads.
  std::string config_path;  // The configuration file (host path).
};

class ConfigManager {
 public:
  ConfigManager(FileSystem* fs, ConfigManagerOptions options);

  StatusOr<ApplyResult> Apply();
  // True when something was restored; false when there was nothing to do.
  StatusOr<bool> Restore();

  std::string ManifestBackupPath() const;
  std::string ConfigBackupPath() const;
  std::string ConfigBackupTargetPath() const;
  std::string OwnConfigPath() const;

 private:
  // The configuration Apply writes, computed before the first write.
  struct ConfigPlan {
    std::string text;  // What kube-scheduler is to read.
    // The user's original file, to back up first when set.
    std::optional<std::string> backup;
  };

  // `current`, or our backup of it when `now` (its facts) has the marker.
  StatusOr<std::string> OriginalManifest(const std::string& current,
                                         const ManifestFacts& now) const;
  // The version of the options, else of the image tag in `facts`.
  StatusOr<KubeVersion> VersionOf(const ManifestFacts& facts) const;
  // Without --config: our own file, which `edit` adds and mounts.
  StatusOr<ConfigPlan> PlanOwnConfig(const ManifestFacts& facts,
                                     KubeVersion version, ApplyResult* result,
                                     ManifestEdit* edit) const;
  // With --config: that file (its original) with our entry added.
  StatusOr<ConfigPlan> PlanUserConfig(const ManifestFacts& facts,
                                      ApplyResult* result) const;

  FileSystem* fs_;
  ConfigManagerOptions options_;
};

}  // namespace gcushare::config_manager

#endif  // GCUSHARE_CONFIG_MANAGER_CONFIG_MANAGER_H_
