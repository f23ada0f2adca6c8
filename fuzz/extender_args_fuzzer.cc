// Fuzzes the extender's filter and prioritize bodies (ExtenderArgs, both
// nodeCacheCapable forms): parse, then what the extender reads from them
// (the pod's GCU request, node card layouts), then the replies it encodes
// from them. The pod is kept pruned to what filter reads
// (contract::PodRequestFields: containers' resources, identity), so its
// annotations are not here: pod_annotations_fuzzer fuzzes their decoders.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "contract/annotations.h"
#include "contract/names.h"
#include "contract/pod_request.h"
#include "extender/protocol.h"

namespace {

using gcushare::extender::ExtenderArgs;

// The string under metadata.annotations[key], or nullptr.
const nlohmann::json* Annotation(const nlohmann::json& object,
                                 std::string_view key) {
  if (!object.is_object()) return nullptr;
  auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return nullptr;
  auto annotations = metadata->find("annotations");
  if (annotations == metadata->end() || !annotations->is_object()) {
    return nullptr;
  }
  auto value = annotations->find(std::string(key));
  if (value == annotations->end() || !value->is_string()) return nullptr;
  return &*value;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  gcushare::StatusOr<ExtenderArgs> args =
      gcushare::extender::ParseExtenderArgs(body);
  if (!args.ok()) return 0;
  const std::vector<std::string> names = args->CandidateNames();
  (void)gcushare::contract::ComputePodRequest(args->pod);
  if (args->nodes.has_value()) {
    for (const nlohmann::json& node : *args->nodes) {
      if (const nlohmann::json* layout =
              Annotation(node, gcushare::contract::kNodeDevices)) {
        (void)gcushare::contract::DecodeNodeCards(
            layout->get_ref<const std::string&>());
      }
    }
  }
  gcushare::extender::FilterResult result;
  result.passed = names;
  (void)gcushare::extender::EncodeFilterResult(*args, result);
  std::vector<std::pair<std::string, int64_t>> scores;
  scores.reserve(names.size());
  for (const std::string& name : names) scores.emplace_back(name, 5);
  (void)gcushare::extender::EncodeHostPriorityList(scores);
  return 0;
}
