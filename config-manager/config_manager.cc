#include "config-manager/config_manager.h"

#include <cstdint>
#include <cstdio>

#include "config-manager/scheduler_manifest.h"
#include "config-manager/yaml_text.h"

namespace gcushare::config_manager {
namespace {

constexpr char kDefaultKubeconfig[] = "/etc/kubernetes/scheduler.conf";
constexpr mode_t kBackupMode = 0600;

// FNV-1a 64: a content fingerprint for the marker (not security).
std::string Fingerprint(const std::string& text) {
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "fnv1a64-%016llx",
                static_cast<unsigned long long>(hash));
  return buffer;
}

std::string Dir(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// The file, or nullopt when it does not exist; other errors pass through.
StatusOr<std::optional<std::string>> ReadIfExists(FileSystem* fs,
                                                  const std::string& path) {
  auto text = fs->ReadFile(path);
  if (text.ok()) return std::optional<std::string>(*text);
  if (text.status().code() == StatusCode::kNotFound) {
    return std::optional<std::string>();
  }
  return text.status();
}

mode_t ModeOr(FileSystem* fs, const std::string& path, mode_t fallback) {
  auto mode = fs->FileMode(path);
  return mode.ok() ? *mode : fallback;
}

}  // namespace

ConfigManager::ConfigManager(FileSystem* fs, ConfigManagerOptions options)
    : fs_(fs), options_(std::move(options)) {}

std::string ConfigManager::ManifestBackupPath() const {
  return options_.state_dir + "/backup/kube-scheduler.yaml";
}
std::string ConfigManager::ConfigBackupPath() const {
  return options_.state_dir + "/backup/scheduler-config.yaml";
}
std::string ConfigManager::ConfigBackupTargetPath() const {
  return options_.state_dir + "/backup/scheduler-config.path";
}
std::string ConfigManager::OwnConfigPath() const {
  return options_.state_dir + "/config/scheduler-config.yaml";
}

StatusOr<ApplyResult> ConfigManager::Apply() {
  const std::string& manifest_path = options_.manifest_path;
  GCUSHARE_ASSIGN_OR_RETURN(auto current, ReadIfExists(fs_, manifest_path));
  if (!current) {
    return FailedPreconditionError("no kube-scheduler manifest at " +
                                   manifest_path +
                                   " (is this a kubeadm control-plane node?)");
  }
  GCUSHARE_ASSIGN_OR_RETURN(ManifestFacts now,
                            InspectManifest(*current, manifest_path));
  GCUSHARE_ASSIGN_OR_RETURN(std::string original,
                            OriginalManifest(*current, now));
  const bool back_up_manifest = !now.has_marker;
  GCUSHARE_ASSIGN_OR_RETURN(ManifestFacts facts,
                            InspectManifest(original, manifest_path));
  GCUSHARE_ASSIGN_OR_RETURN(KubeVersion version, VersionOf(facts));

  ApplyResult result;
  ConfigPlan config;
  ManifestEdit edit;
  if (facts.config_path.empty()) {
    GCUSHARE_ASSIGN_OR_RETURN(config,
                              PlanOwnConfig(facts, version, &result, &edit));
  } else {
    GCUSHARE_ASSIGN_OR_RETURN(config, PlanUserConfig(facts, &result));
  }
  edit.marker = Fingerprint(config.text);
  GCUSHARE_ASSIGN_OR_RETURN(std::string new_manifest,
                            EditManifest(original, manifest_path, edit));

  // Everything is known: write backups, then the configuration, then the
  // manifest (which makes kubelet restart kube-scheduler).
  if (back_up_manifest) {
    GCUSHARE_RETURN_IF_ERROR(
        fs_->WriteFile(ManifestBackupPath(), original, kBackupMode));
  }
  if (config.backup) {
    GCUSHARE_RETURN_IF_ERROR(
        fs_->WriteFile(ConfigBackupPath(), *config.backup, kBackupMode));
    GCUSHARE_RETURN_IF_ERROR(fs_->WriteFile(ConfigBackupTargetPath(),
                                            result.config_path, kBackupMode));
  }
  GCUSHARE_ASSIGN_OR_RETURN(auto config_now,
                            ReadIfExists(fs_, result.config_path));
  if (config_now != config.text) {
    GCUSHARE_RETURN_IF_ERROR(
        fs_->WriteFile(result.config_path, config.text,
                       ModeOr(fs_, result.config_path, 0644)));
    result.changed = true;
  }
  if (*current != new_manifest) {
    GCUSHARE_RETURN_IF_ERROR(fs_->WriteFile(manifest_path, new_manifest,
                                            ModeOr(fs_, manifest_path, 0600)));
    result.changed = true;
  }
  return result;
}

StatusOr<std::string> ConfigManager::OriginalManifest(
    const std::string& current, const ManifestFacts& now) const {
  // The original manifest: the backup once we have edited it.
  if (!now.has_marker) return current;
  GCUSHARE_ASSIGN_OR_RETURN(auto backup,
                            ReadIfExists(fs_, ManifestBackupPath()));
  if (!backup) {
    return FailedPreconditionError(
        options_.manifest_path + " carries the annotation " +
        std::string(kMarkerAnnotation) + " but its backup " +
        ManifestBackupPath() +
        " is missing: remove gcushare's edits from it by hand");
  }
  return *backup;
}

StatusOr<KubeVersion> ConfigManager::VersionOf(
    const ManifestFacts& facts) const {
  if (options_.kubernetes_version) return *options_.kubernetes_version;
  return KubeVersionFromImage(facts.image);
}

StatusOr<ConfigManager::ConfigPlan> ConfigManager::PlanOwnConfig(
    const ManifestFacts& facts, KubeVersion version, ApplyResult* result,
    ManifestEdit* edit) const {
  GCUSHARE_ASSIGN_OR_RETURN(result->api_version,
                            SchedulerConfigApiVersion(version));
  result->config_path = OwnConfigPath();
  ConfigPlan config;
  config.text = NewSchedulerConfig(
      result->api_version,
      facts.kubeconfig.empty() ? kDefaultKubeconfig : facts.kubeconfig,
      facts.leader_elect, options_.entry);
  edit->config_path = OwnConfigPath();
  edit->mount_dir = Dir(OwnConfigPath());
  return config;
}

StatusOr<ConfigManager::ConfigPlan> ConfigManager::PlanUserConfig(
    const ManifestFacts& facts, ApplyResult* result) const {
  // kube-scheduler reads its own file: edit that one, keep its apiVersion.
  result->config_path = facts.config_host_path;
  GCUSHARE_ASSIGN_OR_RETURN(auto user_config,
                            ReadIfExists(fs_, result->config_path));
  if (!user_config) {
    return FailedPreconditionError("kube-scheduler's --config file " +
                                   result->config_path + " does not exist");
  }
  // Its original: our backup while the file still holds our entry;
  // otherwise the file as it is now (first run, or rewritten since; an
  // entry of ours written by hand counts as original too).
  ConfigPlan config;
  std::string original_config = *user_config;
  std::optional<std::string> backup;
  if (HasOurEntry(*user_config)) {
    GCUSHARE_ASSIGN_OR_RETURN(backup, ReadIfExists(fs_, ConfigBackupPath()));
  }
  if (backup) {
    original_config = *backup;
  } else {
    config.backup = original_config;
  }
  GCUSHARE_ASSIGN_OR_RETURN(
      config.text,
      AddOurExtender(original_config, result->config_path, options_.entry));
  GCUSHARE_ASSIGN_OR_RETURN(YAML::Node parsed,
                            ParseYamlMap(config.text, result->config_path));
  result->api_version = parsed["apiVersion"].Scalar();
  return config;
}

StatusOr<bool> ConfigManager::Restore() {
  const std::string& manifest_path = options_.manifest_path;
  GCUSHARE_ASSIGN_OR_RETURN(auto backup,
                            ReadIfExists(fs_, ManifestBackupPath()));
  if (!backup) {
    GCUSHARE_ASSIGN_OR_RETURN(auto current, ReadIfExists(fs_, manifest_path));
    if (current) {
      auto facts = InspectManifest(*current, manifest_path);
      if (facts.ok() && facts->has_marker) {
        return FailedPreconditionError(
            manifest_path + " carries gcushare's edits but its backup " +
            ManifestBackupPath() + " is missing: restore it by hand");
      }
    }
    return false;
  }
  // The user's configuration file first: the manifest's restore is what
  // restarts kube-scheduler, and it must then read the original file.
  GCUSHARE_ASSIGN_OR_RETURN(auto target,
                            ReadIfExists(fs_, ConfigBackupTargetPath()));
  if (target) {
    GCUSHARE_ASSIGN_OR_RETURN(auto config_backup,
                              ReadIfExists(fs_, ConfigBackupPath()));
    if (!config_backup) {
      return FailedPreconditionError("backup " + ConfigBackupPath() + " of " +
                                     *target + " is missing");
    }
    GCUSHARE_RETURN_IF_ERROR(
        fs_->WriteFile(*target, *config_backup, ModeOr(fs_, *target, 0644)));
  }
  GCUSHARE_RETURN_IF_ERROR(
      fs_->WriteFile(manifest_path, *backup, ModeOr(fs_, manifest_path, 0600)));
  GCUSHARE_RETURN_IF_ERROR(fs_->RemoveFile(OwnConfigPath()));
  GCUSHARE_RETURN_IF_ERROR(fs_->RemoveFile(ConfigBackupPath()));
  GCUSHARE_RETURN_IF_ERROR(fs_->RemoveFile(ConfigBackupTargetPath()));
  GCUSHARE_RETURN_IF_ERROR(fs_->RemoveFile(ManifestBackupPath()));
  return true;
}

}  // namespace gcushare::config_manager
