// The query parameters of a list or watch request (metav1.ListOptions):
// labelSelector, fieldSelector, watch, allowWatchBookmarks, resourceVersion,
// resourceVersionMatch, timeoutSeconds, limit, continue, sendInitialEvents.
//
// Parsing applies the real server's checks: selectors must parse, field
// selectors may name only the resource's selectable fields, and the
// combinations ValidateListOptions forbids are rejected with its messages
// (the WatchList feature, which allows sendInitialEvents on watches, counts as
// enabled).
//
// Failure: the ApiStatus to answer with (400 BadRequest for unparsable values,
// 422 Invalid `ListOptions.meta.k8s.io "" is invalid: ...` for forbidden
// combinations). Thread-safety: pure functions.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_LIST_OPTIONS_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_LIST_OPTIONS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "tests/peers/apiserver/api_result.h"
#include "tests/peers/apiserver/field_selector.h"
#include "tests/peers/apiserver/label_selector.h"
#include "tests/peers/apiserver/resource_kind.h"

namespace gcushare::apiserver {

// Query parameters as httplib delivers them.
using QueryParams = std::multimap<std::string, std::string>;

struct ListOptions {
  LabelSelector label_selector;
  FieldSelector field_selector;
  bool watch = false;
  bool allow_watch_bookmarks = false;
  std::string resource_version;
  std::string resource_version_match;
  std::optional<int64_t> timeout_seconds;
  int64_t limit = 0;
  std::string continue_token;
  std::optional<bool> send_initial_events;
};

ApiResult<ListOptions> ParseListOptions(const QueryParams& params,
                                        const ResourceKind& kind);

// The predicate a list or watch applies to objects: the namespace and the
// name when not empty, then the label and field selectors. `kind` must
// outlive the predicate.
std::function<bool(const Json&)> MakeObjectFilter(const ListOptions& options,
                                                  const ResourceKind& kind,
                                                  const std::string& ns,
                                                  const std::string& name);

// Go's strconv.ParseBool.
std::optional<bool> ParseGoBool(const std::string& s);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_LIST_OPTIONS_H_
