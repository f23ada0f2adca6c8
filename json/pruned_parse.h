// Streaming parse of JSON from outside the process that builds only the
// fields a FieldTree names (json/field_tree.h): the rest of the text is
// scanned (and must be valid JSON) but never becomes a DOM, so decoding a
// 2 MB list page of pods allocates for the few fields placement reads, not
// for every label, env var and status condition.
//
// Uses simdjson On-Demand (Debian's libsimdjson 3.0.1): values not named
// are skipped by bracket counting, never decoded (4-5x faster than
// nlohmann's SAX parser with a pruning handler, 10x faster than a whole
// DOM: //extender/benchmarks:decode_benchmark, docs/benchmarks.md "Decoding a
// page of pods"). The bound of json/bounded_parse.h holds: the same linear
// pre-scan refuses text nested deeper than `max_depth`, kept or not, and the
// conversion of kept values recurses at most that deep.
// Validation: the whole text must be UTF-8 with balanced strings and
// brackets and nothing after the root; values that are skipped are not
// checked further (a malformed number in a dropped field passes).
//
// Errors are InvalidArgument "<what>: nested deeper than N levels" or
// "<what>: malformed JSON (<simdjson's message>)".
#ifndef GCUSHARE_JSON_PRUNED_PARSE_H_
#define GCUSHARE_JSON_PRUNED_PARSE_H_

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "json/bounded_parse.h"
#include "json/field_tree.h"
#include "status/status.h"

namespace gcushare::json {

// A text that has passed the depth bound's pre-scan, in a buffer padded
// for simdjson: what ParseEach() needs before the walk, made ahead of it
// (on another thread, while the previous list page is decoded). Owns its
// bytes; immutable once made; movable.
class PreparedText {
 public:
  // Scans `text` against `max_depth` (the error is ParseEach()'s:
  // InvalidArgument "<what>: nested deeper than N levels") and pads it
  // (in place when its capacity allows, else by one copy).
  static StatusOr<PreparedText> Make(std::string text, std::string_view what,
                                     int max_depth = kMaxJsonDepth);

  PreparedText(PreparedText&&) = default;
  PreparedText& operator=(PreparedText&&) = default;
  // Not copyable: a copy of the buffer need not keep its padding.
  PreparedText(const PreparedText&) = delete;
  PreparedText& operator=(const PreparedText&) = delete;

  std::string_view text() const { return buffer_; }
  int max_depth() const { return max_depth_; }

 private:
  PreparedText(std::string buffer, int max_depth)
      : buffer_(std::move(buffer)), max_depth_(max_depth) {}

  std::string buffer_;  // capacity() >= size() + simdjson's padding.
  int max_depth_;
};

// Reuses its buffers from one Parse() to the next (a list's pages).
// Thread-compatible: one thread at a time.
class PrunedParser {
 public:
  PrunedParser();
  ~PrunedParser();
  PrunedParser(const PrunedParser&) = delete;
  PrunedParser& operator=(const PrunedParser&) = delete;

  // `text` as JSON with only the fields `keep` names (an empty tree keeps
  // everything, as ParseJson does).
  StatusOr<nlohmann::json> Parse(std::string_view text, const FieldTree& keep,
                                 std::string_view what,
                                 int max_depth = kMaxJsonDepth);

  // As Parse(), for a text the caller has already checked against
  // `max_depth` as the pre-scan would (a list item cut out by
  // kube/list_splitter.h, which refuses deeper nesting as it scans): the
  // pre-scan, a second pass over the text, is skipped. Decoding still
  // stops at `max_depth` in the kept values; a deeper skipped value that
  // the caller let through is skipped, not refused.
  StatusOr<nlohmann::json> ParseDepthChecked(std::string_view text,
                                             const FieldTree& keep,
                                             std::string_view what,
                                             int max_depth = kMaxJsonDepth);

  // As Parse(), for a root object holding an array under `array_key` (a
  // list page's "items"): each element of that array is handed to `each`
  // as soon as it is decoded, with the root as decoded so far (the fields
  // before the array), and freed after, so that one element at a time is
  // held; the result has the rest of the root and `array_key` absent (or
  // as sent when it is not an array). The depth bound holds for the whole
  // text before anything is handed over; a malformed text may fail after
  // some elements were handed over. `each` runs on the calling thread.
  using ElementCallback =
      std::function<void(nlohmann::json element, const nlohmann::json& root)>;
  StatusOr<nlohmann::json> ParseEach(std::string_view text,
                                     const FieldTree& keep,
                                     std::string_view array_key,
                                     const ElementCallback& each,
                                     std::string_view what,
                                     int max_depth = kMaxJsonDepth);
  // As above, for a text already scanned and padded (its max_depth holds).
  StatusOr<nlohmann::json> ParseEach(const PreparedText& text,
                                     const FieldTree& keep,
                                     std::string_view array_key,
                                     const ElementCallback& each,
                                     std::string_view what);

 private:
  // The walk of ParseEach(), over `padded` (whose depth was checked).
  StatusOr<nlohmann::json> Walk(std::string_view padded, size_t capacity,
                                const FieldTree& keep,
                                std::string_view array_key,
                                const ElementCallback& each,
                                std::string_view what, int max_depth);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// PrunedParser().Parse(...); pure, thread-safe.
StatusOr<nlohmann::json> ParsePruned(std::string_view text,
                                     const FieldTree& keep,
                                     std::string_view what,
                                     int max_depth = kMaxJsonDepth);

}  // namespace gcushare::json

#endif  // GCUSHARE_JSON_PRUNED_PARSE_H_
