// Streaming parse of JSON from outside the process that builds only the
// fields a FieldTree names (json/field_tree.h): the rest of the text is
// scanned (and must be valid JSON) but never becomes a DOM, so decoding a
// 2 MB list page of pods allocates for the few fields placement reads, not
// for every label, env var and status condition.
//
// Uses nlohmann's SAX interface (an iterative parser) with a handler that
// tracks nesting depth, so the bound of json/bounded_parse.h holds without
// a separate pre-scan: text nested deeper than `max_depth` (kept or not)
// is refused before anything deeper is read.
//
// Pure function; thread-safe. Errors are InvalidArgument "<what>: nested
// deeper than N levels" or "<what>: malformed JSON (<parser's message>)".
#ifndef GCUSHARE_JSON_PRUNED_PARSE_H_
#define GCUSHARE_JSON_PRUNED_PARSE_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "json/bounded_parse.h"
#include "json/field_tree.h"
#include "status/status.h"

namespace gcushare::json {

// `text` as JSON with only the fields `keep` names (an empty tree keeps
// everything, as ParseJson does).
StatusOr<nlohmann::json> ParsePruned(std::string_view text,
                                     const FieldTree& keep,
                                     std::string_view what,
                                     int max_depth = kMaxJsonDepth);

}  // namespace gcushare::json

#endif  // GCUSHARE_JSON_PRUNED_PARSE_H_
