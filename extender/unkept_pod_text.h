// Reads, straight from a listed pod's JSON text, what the extender counts
// of a pod it does not keep (one that asks for no GCU): its uid, node,
// phase and host request (PodHostRequest()), without building JSON
// objects. At start-up two pods in three are such pods, and decoding them
// into objects was most of their cost (docs/startup.md).
//
// It is PodTextReader (extender/pod_text.h) with the usual path's verdict
// on top: nullopt for a text that holds "enflame.com/" anywhere (it may ask
// for a GCU or carry our annotations), for one PodTextReader leaves (a
// field of another type than the API server writes, a field written twice,
// a quantity the usual path refuses, malformed JSON), and for a pod
// without a uid or whose request the usual path would keep; the caller
// then decodes the pod as usual.
//
// Thread-compatible: one reader per thread (it reuses its buffers). The
// views in a result point into the reader and last until the next Read().
#ifndef GCUSHARE_EXTENDER_UNKEPT_POD_TEXT_H_
#define GCUSHARE_EXTENDER_UNKEPT_POD_TEXT_H_

#include <memory>
#include <optional>
#include <string_view>

#include "placement/request_mix.h"

namespace gcushare::extender {

struct UnkeptPod {
  std::string_view uid;            // metadata.uid
  std::string_view node;           // spec.nodeName; "" when absent.
  std::string_view phase;          // status.phase; "" when absent.
  placement::HostRequest request;  // PodHostRequest() of the pod.
};

class UnkeptPodReader {
 public:
  UnkeptPodReader();
  ~UnkeptPodReader();
  UnkeptPodReader(const UnkeptPodReader&) = delete;
  UnkeptPodReader& operator=(const UnkeptPodReader&) = delete;

  // The pod in `text` (one JSON object, as a list holds it), or nullopt
  // (see above).
  std::optional<UnkeptPod> Read(std::string_view text);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_UNKEPT_POD_TEXT_H_
