// Fuzzes the extender's reader of plain pods' text
// (extender/unkept_pod_text.h) against the usual path: whenever the reader
// takes a text that the pod informer's decode also accepts, the decoded
// pod must be one PodKeptForm() drops, with the same uid, node and phase,
// and PodHostRequest() must give the same request. (A text the decode
// refuses fails the whole list on the usual path; the reader may skip
// such a fault in a field it does not read, as documented.)

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "extender/cache_feed.h"
#include "extender/node_resources.h"
#include "extender/unkept_pod_text.h"
#include "json/pruned_parse.h"
#include "kube/json_fields.h"

namespace {

using gcushare::StatusOr;
using gcushare::extender::PodFields;
using gcushare::extender::PodHostRequest;
using gcushare::extender::PodKeptForm;
using gcushare::extender::UnkeptPod;
using gcushare::extender::UnkeptPodReader;

void Check(bool condition) {
  if (!condition) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const gcushare::json::FieldTree* const kFields =
      new gcushare::json::FieldTree(PodFields());
  static UnkeptPodReader* const reader = new UnkeptPodReader();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::optional<UnkeptPod> pod = reader->Read(text);
  if (!pod.has_value()) return 0;
  const StatusOr<nlohmann::json> decoded =
      gcushare::json::ParsePruned(text, *kFields, "pod");
  if (!decoded.ok()) return 0;
  Check(!PodKeptForm(*decoded).has_value());
  const auto request = PodHostRequest(*decoded);
  Check(request.ok());
  Check(request->cpu_milli == pod->request.cpu_milli);
  Check(request->memory == pod->request.memory);
  Check(gcushare::kube::StringAt(*decoded, {"metadata", "uid"}) == pod->uid);
  Check(gcushare::kube::StringAt(*decoded, {"spec", "nodeName"}) == pod->node);
  Check(gcushare::kube::StringAt(*decoded, {"status", "phase"}) == pod->phase);
  return 0;
}
