#include "extender/node_verdict.h"

#include <algorithm>

#include "contract/names.h"

namespace gcushare::extender {

std::string MixedRequestReason() {
  return "pod asks for both " + std::string(contract::kResourceMemory) +
         " and " + std::string(contract::kResourceCount) +
         "; ask for shared memory or whole cards, not both";
}

NodeVerdict Judge(const CachedNode* node, const contract::PodRequest& request,
                  Policy policy, const RequestMix* mix) {
  NodeVerdict verdict;
  verdict.unresolvable = true;
  if (request.Mixed()) {
    verdict.reason = MixedRequestReason();
    return verdict;
  }
  if (node == nullptr) {
    verdict.reason = NotSharingNodeReason();
    return verdict;
  }
  if (!node->view.usable()) {
    verdict.reason = node->view.problem;
    return verdict;
  }
  uint64_t largest = 0;
  for (const CardUsage& card : node->cards) {
    largest = std::max(largest, card.total_units);
  }
  if (request.memory_units > largest) {
    // The manual's words first (operators grep for them), then the detail.
    verdict.reason = std::string(kInsufficientMemoryReason) +
                     ": pod requests " + std::to_string(request.memory_units) +
                     " units of " + std::string(contract::kResourceMemory) +
                     " (unit " + node->view.unit_text +
                     " GiB), more than the largest card here holds (" +
                     std::to_string(largest) + ")";
    return verdict;
  }
  if (request.cards > node->cards.size()) {
    verdict.reason = "pod requests " + std::to_string(request.cards) + " " +
                     std::string(contract::kResourceCount) +
                     ", more than the node's " +
                     std::to_string(node->cards.size()) + " cards";
    return verdict;
  }
  CardRequest card_request;
  card_request.memory_units = request.memory_units;
  card_request.cards = static_cast<uint32_t>(request.cards);
  auto placement = Place(node->cards, card_request, policy, mix);
  if (!placement.ok()) {
    verdict.unresolvable = false;
    verdict.reason = placement.status().message();
    return verdict;
  }
  verdict.fits = true;
  verdict.unresolvable = false;
  verdict.placement = std::move(*placement);
  return verdict;
}

}  // namespace gcushare::extender
