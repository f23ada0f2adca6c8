// The CDI device registry a container runtime builds from its spec
// directories, as containerd's CDI cache does (container-device-interface
// pkg/cdi cache.go refresh()):
//   - every top-level *.json / *.yaml file of each directory is read,
//     parsed and validated with the project's cdi/ loader; a file that fails
//     is recorded in `errors` and skipped, the others still count;
//   - a directory's priority is its position in the list (later = higher);
//     a device name ("vendor/class=name") declared again in a directory of
//     higher priority replaces the earlier one silently;
//   - the same name declared twice at the same priority is a conflict: both
//     declarations are dropped (the name becomes unresolvable) and the
//     conflict is recorded in `errors`, naming the two files.
//
// Pure apart from reading the files; thread-safe (no shared state). Never
// throws.
#ifndef GCUSHARE_TESTS_PEERS_CDI_RUNTIME_CDI_REGISTRY_H_
#define GCUSHARE_TESTS_PEERS_CDI_RUNTIME_CDI_REGISTRY_H_

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cdi/spec.h"
#include "status/status.h"

namespace gcushare::peers::cdi_runtime {

// One loaded spec file.
struct RegistrySpec {
  std::string path;
  int priority = 0;           // Index of its directory.
  cdi::ContainerEdits edits;  // Spec-level containerEdits.
};

// One resolvable device.
struct RegistryDevice {
  std::shared_ptr<const RegistrySpec> spec;
  cdi::ContainerEdits edits;  // The device's containerEdits.
};

struct CdiRegistry {
  // By fully qualified name: "k8s.gcu.enflame.com/gcu=<uid>-gcu-0".
  std::map<std::string, RegistryDevice> devices;
  // One line per problem: "<path>: <reason>" or "conflicting device ...".
  std::vector<std::string> errors;
};

// Converts a validated containerEdits tree (cdi/validator.h) into the model
// of cdi/spec.h: env, deviceNodes, mounts, hooks, additionalGids (intelRdt
// and netDevices are not modelled and ignored). InvalidArgument when a field
// has the wrong type (never for a validated tree).
StatusOr<cdi::ContainerEdits> EditsFromJson(const nlohmann::json& edits);

// Scans `dirs` (lowest priority first). A missing directory has no specs.
CdiRegistry LoadCdiRegistry(const std::vector<std::string>& dirs);

}  // namespace gcushare::peers::cdi_runtime

#endif  // GCUSHARE_TESTS_PEERS_CDI_RUNTIME_CDI_REGISTRY_H_
