#include "config-manager/kube_version.h"

#include <charconv>

namespace gcushare::config_manager {
namespace {

// Parses the leading decimal number of `text` (advancing it); false when
// there is none or it overflows.
bool TakeNumber(std::string_view& text, int* value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *value);
  if (ec != std::errc() || ptr == text.data()) return false;
  text.remove_prefix(ptr - text.data());
  return true;
}

}  // namespace

StatusOr<KubeVersion> ParseKubeVersion(std::string_view text) {
  std::string_view rest = text;
  if (!rest.empty() && (rest.front() == 'v' || rest.front() == 'V')) {
    rest.remove_prefix(1);
  }
  KubeVersion version;
  if (!TakeNumber(rest, &version.major) || rest.empty() ||
      rest.front() != '.') {
    return InvalidArgumentError("not a Kubernetes version: \"" +
                                std::string(text) +
                                "\" (want e.g. 1.28 or v1.28.2)");
  }
  rest.remove_prefix(1);
  if (!TakeNumber(rest, &version.minor)) {
    return InvalidArgumentError("not a Kubernetes version: \"" +
                                std::string(text) +
                                "\" (want e.g. 1.28 or v1.28.2)");
  }
  // The rest may be ".patch" and any "-pre"/"+build" suffix.
  if (!rest.empty() && rest.front() != '.' && rest.front() != '-' &&
      rest.front() != '+') {
    return InvalidArgumentError("not a Kubernetes version: \"" +
                                std::string(text) + "\"");
  }
  if (version.major != 1) {
    return InvalidArgumentError("unsupported Kubernetes major version in \"" +
                                std::string(text) + "\"");
  }
  return version;
}

StatusOr<KubeVersion> KubeVersionFromImage(std::string_view image) {
  std::string_view ref = image;
  if (size_t at = ref.find('@'); at != std::string_view::npos) {
    ref = ref.substr(0, at);  // Drop a digest.
  }
  size_t slash = ref.rfind('/');
  size_t colon = ref.rfind(':');
  if (colon == std::string_view::npos ||
      (slash != std::string_view::npos && colon < slash)) {
    return InvalidArgumentError(
        "the kube-scheduler image \"" + std::string(image) +
        "\" has no version tag; pass --kubernetes-version");
  }
  auto version = ParseKubeVersion(ref.substr(colon + 1));
  if (!version.ok()) {
    return InvalidArgumentError("the kube-scheduler image \"" +
                                std::string(image) + "\" has no version tag (" +
                                version.status().message() +
                                "); pass --kubernetes-version");
  }
  return version;
}

StatusOr<std::string> SchedulerConfigApiVersion(KubeVersion version) {
  const std::string group = "kubescheduler.config.k8s.io/";
  if (version.minor >= 25) return group + "v1";
  if (version.minor >= 23) return group + "v1beta3";
  if (version.minor == 22) return group + "v1beta2";
  if (version.minor >= 19) return group + "v1beta1";
  return UnimplementedError(
      "Kubernetes 1." + std::to_string(version.minor) +
      " has no KubeSchedulerConfiguration with extenders (1.19 or later "
      "needed); configure the legacy Policy file by hand");
}

}  // namespace gcushare::config_manager
