// kube-scheduler's static pod manifest (kubeadm:
// /etc/kubernetes/manifests/kube-scheduler.yaml): what the config manager
// reads from it and the edit it makes.
//
// The edit, on the ORIGINAL manifest: a `--config=<file>` flag and a
// read-only hostPath mount of the file's directory when kube-scheduler had
// no configuration file, and always the annotation kMarkerAnnotation whose
// value changes with the configuration's content, so that kubelet restarts
// kube-scheduler when only the configuration file changed.
//
// Pure functions over YAML text; thread-safe. Failure: InvalidArgument
// naming the file and the problem.
#ifndef GCUSHARE_CONFIG_MANAGER_SCHEDULER_MANIFEST_H_
#define GCUSHARE_CONFIG_MANAGER_SCHEDULER_MANIFEST_H_

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::config_manager {

// Pod annotation marking a manifest edited by the config manager.
inline constexpr std::string_view kMarkerAnnotation =
    "gcushare.enflame.com/scheduler-config";
// Name of the volume the edit adds.
inline constexpr std::string_view kConfigVolumeName =
    "gcushare-scheduler-config";

struct ManifestFacts {
  std::string image;  // The kube-scheduler container's image.
  // --config as kube-scheduler sees it, and the same file on the host
  // (through the pod's hostPath mounts); both empty when there is none.
  std::string config_path;
  std::string config_host_path;
  // --kubeconfig (kubeadm: /etc/kubernetes/scheduler.conf) and
  // --leader-elect (default true).
  std::string kubeconfig;
  bool leader_elect = true;
  bool has_marker = false;  // kMarkerAnnotation present.
};

StatusOr<ManifestFacts> InspectManifest(std::string_view text,
                                        std::string_view what);
// The same for a manifest already parsed (ParseYamlMap); reads only.
StatusOr<ManifestFacts> InspectManifest(const YAML::Node& pod,
                                        std::string_view what);

struct ManifestEdit {
  // When not empty: add --config=<config_path> and mount `mount_dir` (the
  // same path on the host and in the pod) read-only.
  std::string config_path;
  std::string mount_dir;
  // The marker annotation's value.
  std::string marker;
};

StatusOr<std::string> EditManifest(std::string_view original,
                                   std::string_view what,
                                   const ManifestEdit& edit);
// The same for a manifest already parsed (ParseYamlMap), which it edits in
// place (a YAML::Node is a handle: the caller's tree changes, also when it
// fails part way).
StatusOr<std::string> EditManifest(YAML::Node pod, std::string_view what,
                                   const ManifestEdit& edit);

}  // namespace gcushare::config_manager

#endif  // GCUSHARE_CONFIG_MANAGER_SCHEDULER_MANIFEST_H_
