// Codecs for the annotations of docs/contracts.md: what the extender writes on
// a pod at bind (CardAssignment) and what the device plugin publishes on its
// node (NodeCard list). Pure functions; the JSON shapes and string forms are
// the contract, so every component encodes and decodes through here.
#ifndef GCUSHARE_CONTRACT_ANNOTATIONS_H_
#define GCUSHARE_CONTRACT_ANNOTATIONS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "status/status.h"

namespace gcushare::contract {

// The pod annotations written at bind.
struct CardAssignment {
  std::vector<uint32_t> cards;  // gcu-device-id: "0", or "2,3" (whole).
  // gcu-device-memory: the card's total memory in units (absent: not
  // annotated; our writers always set it).
  std::optional<uint64_t> card_memory_units;
  uint64_t request_units = 0;  // gcu-device-memory-request
  int64_t assign_time_ns = 0;  // gcu-device-assign-time
  bool assigned = false;       // gcu-device-assigned
  // gcu-container-devices: container name -> card indexes.
  std::map<std::string, std::vector<uint32_t>> container_cards;
  // gcu-memory-unit on the pod: read if present (it overrides the node's
  // unit for the NRI plugin); our writers never set it.
  std::optional<std::string> memory_unit;

  friend bool operator==(const CardAssignment&,
                         const CardAssignment&) = default;
};

// The annotations as strings: all six, plus gcu-device-memory and
// gcu-memory-unit only when set.
std::map<std::string, std::string> EncodeAssignment(const CardAssignment& a);

// Reads the assignment from a pod's metadata.annotations object (or null).
// std::nullopt when the pod carries no gcu-device-id (not assigned by us);
// InvalidArgument naming the annotation when one is malformed.
StatusOr<std::optional<CardAssignment>> DecodeAssignment(
    const nlohmann::json& annotations);
// The same over any store of string annotations: `lookup(key)` is the
// value of `key`, or nullopt when absent (or not a string). For a reader of
// the pod's text (extender/pod_text.h).
using AnnotationLookup =
    std::function<std::optional<std::string_view>(std::string_view key)>;
StatusOr<std::optional<CardAssignment>> DecodeAssignment(
    const AnnotationLookup& lookup);

// The mark that a pod's cards were handed out (gcu-device-assigned=true),
// written after the bind by the device plugin's Allocate or the NRI plugin:
// an object for metadata.annotations.
nlohmann::json EncodeAssignedMark();
// Whether `annotations` (a metadata.annotations object, or anything) carry
// that mark. Never throws.
bool HasAssignedMark(const nlohmann::json& annotations);

// The cards a container gets: its gcu-container-devices entry, else (older
// writers, memory pods) every card of gcu-device-id. NotFound when the
// container is not listed and the pod has container entries (it asked for
// nothing).
StatusOr<std::vector<uint32_t>> CardsForContainer(const CardAssignment& a,
                                                  std::string_view container);

// "2,3" <-> {2, 3}. Parsing rejects empty items, signs and non-digits.
std::string JoinCardList(const std::vector<uint32_t>& cards);
StatusOr<std::vector<uint32_t>> ParseCardList(std::string_view text);

// One card as published in the node annotation enflame.com/gcu-devices.
struct NodeCard {
  uint32_t index = 0;
  std::string uuid;
  uint64_t memory_units = 0;
  bool healthy = true;
  std::optional<int> numa;

  friend bool operator==(const NodeCard&, const NodeCard&) = default;
};

// JSON array text: [{"index":0,"uuid":"...","memory":160,"healthy":true,
// "numa":0}, ...] ("numa" omitted when unknown).
std::string EncodeNodeCards(const std::vector<NodeCard>& cards);
StatusOr<std::vector<NodeCard>> DecodeNodeCards(std::string_view text);

}  // namespace gcushare::contract

#endif  // GCUSHARE_CONTRACT_ANNOTATIONS_H_
