#include "tests/peers/apiserver/list_handler.h"

#include <chrono>
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

// Appends the JSON of a list item, the object without kind and apiVersion,
// to `out`: the stored text past `prefix` when it starts so (canonical
// objects do), else a re-serialization.
void AppendItemJson(const StoredObject& object, const std::string& prefix,
                    std::string& out) {
  if (object.json.rfind(prefix, 0) == 0) {
    out += '{';
    out.append(object.json, prefix.size());
    return;
  }
  Json copy = object.object;
  copy.erase("kind");
  copy.erase("apiVersion");
  out += DumpJson(copy);
}

}  // namespace

void ListHandler::List(const ApiPath& path, const ListOptions& options,
                       httplib::Response& res) {
  const auto started = std::chrono::steady_clock::now();
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
  ObjectStore::PageSpec page_spec;
  page_spec.resource = kind.resource;
  page_spec.at_rv = at_rv;
  page_spec.start = start;
  page_spec.limit = limit;
  page_spec.matches = MakeObjectFilter(options, kind, path.ns, "");
  // Like etcd's count of the rest of the range: only without selectors.
  page_spec.count_remaining =
      options.label_selector.empty() && options.field_selector.empty();
  page_spec.scope = path.ns;
  auto page = store.ListPage(page_spec);
  if (!page.ok()) {
    WriteStatus(
        res, ExpiredStatus("The resourceVersion for the provided list is too "
                           "old."));
    return;
  }
  const std::string prefix = "{\"kind\":\"" + kind.kind +
                             "\",\"apiVersion\":\"" + kind.api_version() +
                             "\",";
  std::string body_items;
  size_t reserve = 0;
  for (const auto& [key, object] : page->items) reserve += object->json.size();
  body_items.reserve(reserve);
  for (const auto& [key, object] : page->items) {
    if (!body_items.empty()) body_items += ",";
    AppendItemJson(*object, prefix, body_items);
  }
  Json meta = Json::object();
  meta["resourceVersion"] = std::to_string(page->rv);
  if (page->more) {
    meta["continue"] = EncodeContinueToken({page->rv, page->next_start});
    if (page->remaining >= 0) meta["remainingItemCount"] = page->remaining;
  }
  std::string body = "{\"kind\":\"" + kind.list_kind + "\",\"apiVersion\":\"" +
                     kind.api_version() + "\",\"metadata\":" + DumpJson(meta) +
                     ",\"items\":[" + body_items + "]}\n";
  if (ctx_.list_cost != nullptr) {
    ctx_.list_cost->Charge(
        ListSourceOf(options.resource_version, options.resource_version_match,
                     options.limit, !options.continue_token.empty()),
        body.size(), std::chrono::steady_clock::now() - started);
  }
  WriteJsonText(res, 200, body);
}

}  // namespace gcushare::apiserver
