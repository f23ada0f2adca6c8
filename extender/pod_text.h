// Reads, straight from a listed pod's JSON text, all the extender takes of
// a pod (its identity, node, phase, assignment annotations, the
// containers' GCU amounts and its host request), without building JSON
// objects: at start-up decoding pods into objects, and freeing those, was
// most of what the extender spent on them (docs/startup.md). For GCU pods
// through PodFeed::TakeKeptText(), for the others through UnkeptPodReader
// (extender/unkept_pod_text.h).
//
// The reader takes only what it can read exactly as the usual path reads
// the pod decoded with PodFields(): anything else gets nullopt, and the
// caller decodes the pod as usual. So nullopt for a field it reads with
// another type than the API server writes (a name that is not a string, a
// quantity that is a number, a container that is not an object, ...), for
// a field it reads written twice in one object, for a quantity the usual
// path refuses, for a key under enflame.com/ in a resource list other than
// the two GCU resources, and for malformed JSON. Fields the decode drops
// are skipped unchecked, as the decode skips them.
//
// Thread-compatible: one reader per thread (it reuses its buffers). The
// views in a result point into the reader and last until the next Read().
#ifndef GCUSHARE_EXTENDER_POD_TEXT_H_
#define GCUSHARE_EXTENDER_POD_TEXT_H_

#include <array>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "contract/pod_request.h"
#include "placement/request_mix.h"

namespace gcushare::extender {

struct PodText {
  // metadata; nullopt when absent.
  std::optional<std::string_view> name;
  std::optional<std::string_view> namespace_name;
  std::optional<std::string_view> uid;
  std::optional<std::string_view> resource_version;
  std::string_view creation_timestamp;  // "" when absent.
  std::string_view node;                // spec.nodeName; "" when absent.
  std::string_view phase;               // status.phase; "" when absent.
  // The assignment annotations PodFields() decodes, in
  // contract::kPodAssignmentKeys order.
  std::array<std::optional<std::string_view>, 6> annotations;
  // The containers as contract::ComputePodRequest() reads them (a name only
  // for those that want GCU).
  std::vector<contract::ContainerRequest> init;
  std::vector<contract::ContainerRequest> app;
  placement::HostRequest host;  // PodHostRequest() of the pod.

  // The value of annotation `key`, as the decoded pod holds it (nullopt for
  // one not decoded).
  std::optional<std::string_view> Annotation(std::string_view key) const;
};

class PodTextReader {
 public:
  PodTextReader();
  ~PodTextReader();
  PodTextReader(const PodTextReader&) = delete;
  PodTextReader& operator=(const PodTextReader&) = delete;

  // The pod in `text` (one JSON object, as a list holds it), or nullopt
  // (see above).
  std::optional<PodText> Read(std::string_view text);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_POD_TEXT_H_
