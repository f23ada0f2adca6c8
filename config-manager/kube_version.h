// Which Kubernetes minor version a control plane runs, and which
// KubeSchedulerConfiguration apiVersion it reads (docs/protocols.md 2.4):
//   1.19-1.21: kubescheduler.config.k8s.io/v1beta1
//   1.22:      v1beta2
//   1.23-1.24: v1beta3
//   1.25+:     v1
// (Each release also reads some older versions; we write the newest one it
// serves, so that the file keeps working across the next upgrade or two.)
// Before 1.19 there is no KubeSchedulerConfiguration with extenders: the
// legacy Policy file is not supported.
//
// Pure functions; thread-safe. Failure: InvalidArgument naming the text.
#ifndef GCUSHARE_CONFIG_MANAGER_KUBE_VERSION_H_
#define GCUSHARE_CONFIG_MANAGER_KUBE_VERSION_H_

#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::config_manager {

struct KubeVersion {
  int major = 1;
  int minor = 0;
  bool operator==(const KubeVersion&) const = default;
};

// "1.28", "v1.28.2", "v1.27.3-eks-1234", "1.30.0+k3s1" -> {1, minor}.
StatusOr<KubeVersion> ParseKubeVersion(std::string_view text);

// The version in an image reference's tag:
// "registry.k8s.io/kube-scheduler:v1.28.2" -> {1, 28}. A digest-only or
// tagless reference is InvalidArgument (pass --kubernetes-version).
StatusOr<KubeVersion> KubeVersionFromImage(std::string_view image);

// "kubescheduler.config.k8s.io/v1" and so on; Unimplemented before 1.19.
StatusOr<std::string> SchedulerConfigApiVersion(KubeVersion version);

}  // namespace gcushare::config_manager

#endif  // GCUSHARE_CONFIG_MANAGER_KUBE_VERSION_H_
