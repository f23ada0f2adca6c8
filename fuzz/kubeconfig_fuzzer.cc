// Fuzzes kubeconfig files (kube/config.h): parsed once (ParseKubeconfig's
// checks and load), then read with current-context and with an explicit
// context.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kube/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // A path whose directory does not exist: relative file references are
  // resolved against it but never read here.
  gcushare::StatusOr<gcushare::kube::ParsedKubeconfig> parsed =
      gcushare::kube::ParsedKubeconfig::Parse(text, "/nonexistent/kubeconfig");
  if (!parsed.ok()) return 0;
  (void)parsed->Read();
  (void)parsed->Read("kind-kind");
  return 0;
}
