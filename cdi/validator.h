// Checks a CDI spec, ours or anyone's, against the CDI 1.1.0 rules
// (docs/protocols.md 5): what a runtime such as containerd enforces when it
// loads a spec file, plus path sanity for device nodes and hooks.
//
// Pure and thread-safe; never throws. The first violation found is returned
// as InvalidArgument whose message names the JSON field path and the rule,
// e.g. `devices[2].containerEdits.deviceNodes[0].path: "dev/gcu0" is not an
// absolute path`.
#ifndef GCUSHARE_CDI_VALIDATOR_H_
#define GCUSHARE_CDI_VALIDATOR_H_

#include <nlohmann/json.hpp>

#include "status/status.h"

namespace gcushare::cdi {

// Rules, in the order checked:
// - the spec is a map with only cdiVersion, kind, annotations, devices and
//   containerEdits (unknown fields are rejected at every level; a null value
//   counts as absent);
// - cdiVersion: a string naming a known version ('v' prefix tolerated);
// - kind: "<vendor>/<class>" following the name rules (names.h);
// - annotations (spec and device): a map of strings to strings;
// - devices: a list with at least one entry; each has a valid name, unique in
//   the spec, and non-empty containerEdits;
// - containerEdits: env entries are "NAME=VALUE" with a non-empty NAME;
//   deviceNodes have an absolute path, an absolute hostPath when set, a type
//   in {"", b, c, u, p}, non-negative int64 major/minor, uint32 fileMode,
//   uid and gid, and permissions made of r, w and m; mounts have non-empty
//   hostPath and containerPath and string options; hooks have a hookName in
//   {prestart, createRuntime, createContainer, startContainer, poststart,
//   poststop}, an absolute path, string args, valid env and an integer
//   timeout; additionalGids are uint32; intelRdt has string closID,
//   l3CacheSchema, memBwSchema, string schemata and boolean enableMonitoring;
//   netDevices have non-empty, unique hostInterfaceName and name;
// - cdiVersion is not lower than what the features used need (version.h),
//   and never below 0.3.0.
Status ValidateSpec(const nlohmann::json& spec);

}  // namespace gcushare::cdi

#endif  // GCUSHARE_CDI_VALIDATOR_H_
