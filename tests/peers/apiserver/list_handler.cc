#include "tests/peers/apiserver/list_handler.h"

#include <algorithm>
#include <string>

#include "tests/peers/apiserver/continue_token.h"
#include "tests/peers/apiserver/object_meta.h"
#include "tests/peers/apiserver/response_writer.h"

namespace gcushare::apiserver {
namespace {

constexpr char kExpiredContinue[] =
    "The provided continue parameter is too old to display a consistent "
    "list result. You can start a new list without the continue parameter, "
    "or use the continue token in this response to retrieve the remainder of "
    "the results. Continuing with the provided token results in an "
    "inconsistent list - objects that were created, modified, or deleted "
    "between the time the first chunk was returned and now may show up in "
    "the list.";

// The stored JSON of a list item: the object without kind and apiVersion.
std::string ItemJson(const StoredObject& object, const std::string& prefix) {
  if (object.json.rfind(prefix, 0) == 0) {
    return "{" + object.json.substr(prefix.size());
  }
  Json copy = object.object;
  copy.erase("kind");
  copy.erase("apiVersion");
  return DumpJson(copy);
}

}  // namespace

void ListHandler::List(const ApiPath& path, const ListOptions& options,
                       httplib::Response& res) {
  const ResourceKind& kind = *path.kind;
  ObjectStore& store = *ctx_.store;
  int64_t at_rv = 0;  // 0: now.
  std::string start;
  int64_t limit = options.limit;
  if (!options.continue_token.empty()) {
    auto token = DecodeContinueToken(options.continue_token);
    if (!token.ok()) {
      WriteStatus(res, BadRequestStatus("invalid continue token: " +
                                        token.status().message()));
      return;
    }
    start = token->start;
    at_rv = token->rv < 0 ? 0 : token->rv;
    if (at_rv != 0 && at_rv < store.OldestResumableRv()) {
      ApiStatus expired = ExpiredStatus(kExpiredContinue);
      expired.WithContinue(EncodeContinueToken({-1, start}));
      WriteStatus(res, expired);
      return;
    }
  } else if (!options.resource_version.empty()) {
    const std::string& rv_text = options.resource_version;
    int64_t rv = ParseResourceVersion(rv_text);
    if (rv < 0) {
      WriteStatus(res,
                  BadRequestStatus("invalid resource version: " + rv_text));
      return;
    }
    int64_t current = store.CurrentRv();
    if (rv > current) {
      WriteStatus(
          res, TooLargeResourceVersionStatus(rv_text, std::to_string(current)));
      return;
    }
    if (options.resource_version_match == "Exact") {
      at_rv = rv;
    } else if (rv == 0) {
      limit = 0;  // Served from the watch cache, which ignores limit.
    }
  }
  auto snapshot = store.List(kind.resource, at_rv);
  if (!snapshot.ok()) {
    WriteStatus(
        res, ExpiredStatus("The resourceVersion for the provided list is too "
                           "old."));
    return;
  }
  auto matches = MakeObjectFilter(options, kind, path.ns, "");
  const auto& items = snapshot->items;
  auto it = items.begin();
  if (!start.empty()) {
    it = std::lower_bound(items.begin(), items.end(), start,
                          [](const auto& item, const std::string& key) {
                            return item.first < key;
                          });
  }
  const std::string prefix =
      "{\"kind\":\"" + kind.kind + "\",\"apiVersion\":\"v1\",";
  std::string body_items;
  int64_t count = 0;
  std::string next_start;
  int64_t remaining = 0;
  for (; it != items.end(); ++it) {
    if (!matches(it->second->object)) continue;
    if (limit > 0 && count == limit) {
      ++remaining;  // The token resumes right after the last returned key.
      continue;
    }
    if (count > 0) body_items += ",";
    body_items += ItemJson(*it->second, prefix);
    ++count;
    next_start = it->first;
  }
  Json meta = Json::object();
  meta["resourceVersion"] = std::to_string(snapshot->rv);
  if (remaining > 0) {
    meta["continue"] = EncodeContinueToken({snapshot->rv, next_start + '\0'});
    if (options.label_selector.empty() && options.field_selector.empty()) {
      meta["remainingItemCount"] = remaining;
    }
  }
  std::string body = "{\"kind\":\"" + kind.list_kind +
                     "\",\"apiVersion\":\"v1\",\"metadata\":" + DumpJson(meta) +
                     ",\"items\":[" + body_items + "]}\n";
  WriteJsonText(res, 200, body);
}

}  // namespace gcushare::apiserver
