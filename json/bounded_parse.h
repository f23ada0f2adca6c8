// Parsing of JSON and YAML that comes from outside the process (request
// bodies, watch streams, annotations, kubeconfig, card and CDI files) with a
// bound on nesting depth, checked BEFORE the recursive parsers and
// destructors of nlohmann::json and yaml-cpp see the text: 400 KB of
// "[[[[..." would otherwise overflow the stack and end the process.
//
// The depth scan is linear and iterative; it counts brackets outside
// strings (JSON) or outside quoted scalars and comments plus block
// indentation and compact "- " entries (YAML), an upper bound of the real
// nesting. Real Kubernetes objects nest fewer than 20 levels.
//
// Pure functions; thread-safe. Errors are InvalidArgument naming `what` and
// the limit.
#ifndef GCUSHARE_JSON_BOUNDED_PARSE_H_
#define GCUSHARE_JSON_BOUNDED_PARSE_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "status/status.h"

namespace gcushare::json {

// Deepest nesting accepted in JSON.
inline constexpr int kMaxJsonDepth = 100;
// Deepest YAML nesting accepted (indentation columns count as levels).
inline constexpr int kMaxYamlDepth = 256;

// The deepest nesting of [ and { in `text` outside strings; stops early
// once past `stop_after`.
int JsonNestingDepth(std::string_view text, int stop_after);

// Parses `text` as JSON; InvalidArgument "<what>: nested deeper than 100
// levels" or "<what>: malformed JSON".
StatusOr<nlohmann::json> ParseJson(std::string_view text, std::string_view what,
                                   int max_depth = kMaxJsonDepth);

// OK when `text` is nested at most `max_depth` levels as YAML (see above);
// InvalidArgument "<what>: YAML nested deeper than 256 levels" otherwise.
// Also runs CheckNoYamlCppLoop. Call before YAML::Load / LoadAll.
Status CheckYamlDepth(std::string_view text, std::string_view what,
                      int max_depth = kMaxYamlDepth);

// Debian's yaml-cpp 0.7 never returns from Load/LoadAll when a document's
// root is followed or begun by a "," outside any flow collection ("," at
// the start, "'a' ,", "[1]\n,", "&x ,"; found by //fuzz:cdi_spec_fuzzer).
// Such text is never valid YAML (a plain scalar cannot start with ","), so
// this rejects it: InvalidArgument "<what>: ',' outside a flow collection
// (line N)". A "," inside a plain scalar ("a,b", "a , b") is left alone.
// It also rejects NUL bytes ("<what>: NUL byte (line N); YAML must be
// UTF-8"): with them yaml-cpp reads UTF-16/32, where the same loop hides.
// Then runs CheckYamlCppEnds.
Status CheckNoYamlCppLoop(std::string_view text, std::string_view what);

// The exact check behind CheckNoYamlCppLoop's patterns: runs yaml-cpp's
// own parser over `text` (events only, no tree) and stops it once it has
// produced more events than `text` can hold (4 per byte; real YAML makes at
// most about 1.5), which only its endless-document loops do (found by the
// fuzz targets: a BOM then ",", "&a x\n-\n,", ...). InvalidArgument
// "<what>: yaml-cpp does not finish parsing this text (endless documents
// from line N)"; OK for any other text, malformed YAML included (the
// caller's load reports that). Costs one more parse of `text`.
Status CheckYamlCppEnds(std::string_view text, std::string_view what);

}  // namespace gcushare::json

#endif  // GCUSHARE_JSON_BOUNDED_PARSE_H_
