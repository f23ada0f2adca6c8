#include "kube/curl_kube_client.h"

#include <unistd.h>

#include <utility>

#include "base/url_query.h"
#include "json/bounded_parse.h"
#include "json/pruned_parse.h"
#include "kube/api_status.h"
#include "kube/bearer_auth_http_client.h"
#include "kube/binding.h"
#include "kube/event.h"
#include "kube/fetch_ahead.h"
#include "kube/json_fields.h"
#include "kube/list_splitter.h"
#include "kube/watch_decoder.h"

namespace gcushare::kube {
namespace {

std::string Dump(const nlohmann::json& value) {
  // Replace invalid UTF-8 rather than throw.
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string HostName() {
  char name[256] = {0};
  if (gethostname(name, sizeof(name) - 1) != 0) return "unknown";
  return name;
}

bool IsSuccess(int code) { return code >= 200 && code < 300; }

}  // namespace

StatusOr<std::unique_ptr<CurlKubeClient>> CurlKubeClient::Create(
    const ClientConfig& config, const KubeClientOptions& options) {
  if (config.server.empty()) {
    return InvalidArgumentError("Kubernetes client: no API server URL");
  }
  std::unique_ptr<CurlKubeClient> client(new CurlKubeClient());
  client->server_ = config.server;
  while (!client->server_.empty() && client->server_.back() == '/') {
    client->server_.pop_back();
  }
  client->options_ = options;
  if (client->options_.reporting_instance.empty()) {
    client->options_.reporting_instance = HostName();
  }
  if (options.clock != nullptr) {
    client->clock_ = options.clock;
  } else {
    client->owned_clock_ = std::make_unique<base::RealClock>();
    client->clock_ = client->owned_clock_.get();
  }
  client->curl_ = std::make_unique<CurlHttpClient>(config.tls, options.http);
  client->retrying_ = std::make_unique<RetryingHttpClient>(
      client->curl_.get(), client->clock_, options.retry);
  client->http_ = client->retrying_.get();
  if (!config.token_file.empty()) {
    client->tokens_ = std::make_unique<FileTokenSource>(
        config.token_file, client->clock_, options.token_refresh_interval,
        config.token);
  } else if (!config.token.empty()) {
    client->tokens_ = std::make_unique<StaticTokenSource>(config.token);
  }
  if (client->tokens_ != nullptr) {
    client->authenticated_ = std::make_unique<BearerAuthHttpClient>(
        client->retrying_.get(), client->tokens_.get());
    client->http_ = client->authenticated_.get();
  }
  return client;
}

CurlKubeClient::~CurlKubeClient() = default;

StatusOr<nlohmann::json> CurlKubeClient::Exchange(
    const HttpRequest& request,
    const std::function<StatusOr<nlohmann::json>(const std::string& body)>&
        decode) {
  HttpResult result = http_->Send(request);
  if (!result.status.ok()) return result.status;
  const HttpResponse& response = result.response;
  if (!IsSuccess(response.status_code)) {
    return StatusFromHttpResponse(response.status_code, response.body);
  }
  if (response.body.empty()) return nlohmann::json();
  StatusOr<nlohmann::json> decoded = decode(response.body);
  if (!decoded.ok()) {
    return DataLossError(request.method + " " + request.url + ": HTTP " +
                         std::to_string(response.status_code) + " " +
                         decoded.status().message() + ": " +
                         response.body.substr(0, 120));
  }
  // Moved, not copied.
  return std::move(*decoded);
}

StatusOr<nlohmann::json> CurlKubeClient::Call(
    std::string method, const std::string& path,
    const std::optional<nlohmann::json>& body, std::string_view content_type,
    base::Cancellation* cancel, const json::FieldTree& fields,
    json::PrunedParser* parser) {
  HttpRequest request;
  request.method = std::move(method);
  request.url = server_ + path;
  request.cancel = cancel;
  if (body.has_value()) {
    request.body = Dump(*body);
    request.headers.emplace_back("Content-Type", std::string(content_type));
  }
  // Streamed: only what `fields` names becomes a DOM (a list page of pods
  // is megabytes of text of which placement reads a few fields).
  std::optional<json::PrunedParser> own_parser;
  if (parser == nullptr) parser = &own_parser.emplace();
  return Exchange(request, [&](const std::string& text) {
    return parser->Parse(text, fields, "response");
  });
}

StatusOr<CurlKubeClient::FetchedPage> CurlKubeClient::FetchPage(
    const std::string& path, base::Cancellation* cancel) {
  HttpRequest request;
  request.method = "GET";
  request.url = server_ + path;
  request.cancel = cancel;
  HttpResult result = http_->Send(request);
  if (!result.status.ok()) return result.status;
  HttpResponse& response = result.response;
  if (!IsSuccess(response.status_code)) {
    return StatusFromHttpResponse(response.status_code, response.body);
  }
  FetchedPage page;
  page.url = std::move(request.url);
  page.status_code = response.status_code;
  if (response.body.empty()) return page;
  const std::string start = response.body.substr(0, 120);
  StatusOr<json::PreparedText> text =
      json::PreparedText::Make(std::move(response.body), "response");
  if (!text.ok()) {
    return DataLossError("GET " + page.url + ": HTTP " +
                         std::to_string(page.status_code) + " " +
                         text.status().message() + ": " + start);
  }
  page.text.emplace(std::move(*text));
  return page;
}

StatusOr<nlohmann::json> CurlKubeClient::DecodePage(
    const FetchedPage& page, const json::FieldTree& fields,
    json::PrunedParser& parser,
    const json::PrunedParser::ElementCallback& each) {
  if (!page.text.has_value()) return nlohmann::json();
  StatusOr<nlohmann::json> decoded =
      parser.ParseEach(*page.text, fields, "items", each, "response");
  if (!decoded.ok()) {
    return DataLossError("GET " + page.url + ": HTTP " +
                         std::to_string(page.status_code) + " " +
                         decoded.status().message() + ": " +
                         std::string(page.text->text().substr(0, 120)));
  }
  return std::move(*decoded);
}

StatusOr<nlohmann::json> CurlKubeClient::Get(const Resource& resource,
                                             std::string_view ns,
                                             std::string_view name) {
  return Call("GET", resource.ObjectPath(ns, name), std::nullopt, "", nullptr);
}

StatusOr<ServerVersion> CurlKubeClient::GetServerVersion() {
  GCUSHARE_ASSIGN_OR_RETURN(nlohmann::json version,
                            Call("GET", "/version", std::nullopt, "", nullptr));
  return ParseServerVersion(version);
}

StatusOr<ObjectList> CurlKubeClient::List(const Resource& resource,
                                          std::string_view ns,
                                          const ListOptions& options) {
  ObjectList list;
  GCUSHARE_ASSIGN_OR_RETURN(
      list.resource_version,
      ListEach(resource, ns, options, [&list](nlohmann::json item) {
        list.items.push_back(std::move(item));
      }));
  return list;
}

StatusOr<std::string> CurlKubeClient::ListEach(const Resource& resource,
                                               std::string_view ns,
                                               const ListOptions& options,
                                               const ListItemCallback& each) {
  // What ListEach reads of a page, and of its items what the caller asks.
  json::FieldTree page_fields;
  if (options.fields != nullptr && !options.fields->whole()) {
    page_fields.Add({"metadata", "resourceVersion"})
        .Add({"metadata", "continue"})
        .Add({"metadata", "remainingItemCount"})
        .AddTree({"items"}, *options.fields);
  }
  json::PrunedParser parser;  // Its buffers serve every page.
  auto page_path = [&](const std::string& continue_token) {
    base::UrlQuery query;
    query.AddIfSet("labelSelector", options.label_selector)
        .AddIfSet("fieldSelector", options.field_selector);
    if (options.limit > 0) query.Add("limit", std::to_string(options.limit));
    if (continue_token.empty()) {
      query.AddIfSet("resourceVersion", options.resource_version);
    } else {
      // The token carries the snapshot; resourceVersion must not be set.
      query.Add("continue", continue_token);
    }
    return resource.CollectionPath(ns) + query.Encode();
  };
  if (options.limit <= 0) {
    static const json::FieldTree kWhole;
    return ListStreamed(resource, page_path(""), options,
                        options.fields != nullptr ? *options.fields : kWhole,
                        each);
  }
  // The next page, fetched while this one is decoded and handed over.
  std::unique_ptr<FetchAhead<FetchedPage>> ahead;
  std::string resource_version;
  std::string continue_token;
  bool first_page = true;
  do {
    StatusOr<FetchedPage> fetched =
        ahead != nullptr && ahead->key() == continue_token
            ? ahead->Take()
            : FetchPage(page_path(continue_token), options.cancel);
    ahead.reset();  // One that fetched another token is cancelled.
    if (!fetched.ok()) return fetched.status();
    // Items are handed over as they are decoded (one held at a time); the
    // page's metadata precedes them, as the API server writes it.
    bool told = !first_page || !options.expected_items;
    auto tell = [&](const nlohmann::json& page) {
      if (told) return;
      told = true;
      const nlohmann::json* remaining =
          FindPath(page, {"metadata", "remainingItemCount"});
      if (remaining != nullptr && remaining->is_number_integer() &&
          remaining->get<int64_t>() > 0 && options.limit > 0) {
        options.expected_items(static_cast<size_t>(options.limit) +
                               static_cast<size_t>(remaining->get<int64_t>()));
      }
    };
    // With the first item the page's continue token is known (metadata
    // comes first): the next page is asked for at once, on another thread.
    bool looked_ahead = false;
    auto look_ahead = [&](const nlohmann::json& page) {
      if (looked_ahead) return;
      looked_ahead = true;
      std::string next = StringAt(page, {"metadata", "continue"});
      if (next.empty()) return;
      std::string path = page_path(next);
      ahead = std::make_unique<FetchAhead<FetchedPage>>(
          std::move(next), options.cancel,
          [this, path = std::move(path)](base::Cancellation* cancel) {
            return FetchPage(path, cancel);
          });
    };
    GCUSHARE_ASSIGN_OR_RETURN(
        nlohmann::json page,
        DecodePage(*fetched, page_fields, parser,
                   [&](nlohmann::json item, const nlohmann::json& so_far) {
                     tell(so_far);
                     look_ahead(so_far);
                     each(std::move(item));
                   }));
    first_page = false;
    if (!page.is_object()) {
      return DataLossError("list " + resource.DisplayName() +
                           ": response is not a JSON object");
    }
    auto items = page.find("items");
    if (items != page.end() && !items->is_null()) {
      return DataLossError("list " + resource.DisplayName() +
                           ": \"items\" is not an array");
    }
    resource_version = ResourceVersionOf(page);
    continue_token = StringAt(page, {"metadata", "continue"});
  } while (!continue_token.empty());
  return resource_version;
}

StatusOr<std::string> CurlKubeClient::ListStreamed(
    const Resource& resource, const std::string& path,
    const ListOptions& options, const json::FieldTree& item_fields,
    const ListItemCallback& each) {
  HttpRequest request;
  request.method = "GET";
  request.url = server_ + path;
  request.cancel = options.cancel;
  ListSplitter splitter;
  json::PrunedParser parser;  // Its buffers serve every item.
  Status decode_error;
  request.on_body = [&](std::string_view bytes) {
    Status fed = splitter.Feed(bytes, [&](std::string_view item) {
      if (!decode_error.ok()) return;
      if (options.take_item_text && options.take_item_text(item)) return;
      // The splitter refused nesting past kMaxJsonDepth as it cut the
      // item out (two levels of it are the root and "items"): the
      // parser's own pre-scan of the item would find nothing more.
      StatusOr<nlohmann::json> decoded =
          parser.ParseDepthChecked(item, item_fields, "list item");
      if (!decoded.ok()) {
        decode_error = decoded.status();
        return;
      }
      each(std::move(*decoded));
    });
    if (!fed.ok()) decode_error = fed;
    return decode_error.ok();
  };
  HttpResult result = http_->Send(request);
  const std::string what = "GET " + request.url;
  if (!decode_error.ok()) {
    return DataLossError(what + ": " + decode_error.message());
  }
  if (!result.status.ok()) return result.status;
  if (!IsSuccess(result.response.status_code)) {
    return StatusFromHttpResponse(result.response.status_code,
                                  result.response.body);
  }
  StatusOr<std::string> rest = splitter.Finish();
  if (!rest.ok()) return DataLossError(what + ": " + rest.status().message());
  json::FieldTree rest_fields;
  rest_fields.Add({"metadata", "resourceVersion"});
  StatusOr<nlohmann::json> page =
      parser.Parse(*rest, rest_fields, "list answer");
  if (!page.ok()) return DataLossError(what + ": " + page.status().message());
  if (!page->is_object()) {
    return DataLossError("list " + resource.DisplayName() +
                         ": response is not a JSON object");
  }
  return ResourceVersionOf(*page);
}

Status CurlKubeClient::Watch(const Resource& resource, std::string_view ns,
                             const WatchOptions& options,
                             const WatchCallback& callback) {
  base::UrlQuery query;
  query.Add("watch", "true")
      .AddIfSet("labelSelector", options.label_selector)
      .AddIfSet("fieldSelector", options.field_selector)
      .AddIfSet("resourceVersion", options.resource_version);
  if (options.allow_watch_bookmarks) query.Add("allowWatchBookmarks", "true");
  if (options.timeout_seconds > 0) {
    query.Add("timeoutSeconds", std::to_string(options.timeout_seconds));
  }
  HttpRequest request;
  request.url = server_ + resource.CollectionPath(ns) + query.Encode();
  request.cancel = options.cancel;
  request.timeout = options.timeout_seconds > 0
                        ? std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::seconds(options.timeout_seconds) +
                              options_.watch_timeout_slack)
                        : std::chrono::milliseconds(0);
  WatchDecoder decoder(WatchDecoder::kDefaultMaxLineBytes, options.fields);
  Status decode_error;
  bool streamed = false;
  request.on_body = [&](std::string_view bytes) {
    streamed = true;
    Status fed = decoder.Feed(bytes, callback);
    if (fed.ok()) return true;
    decode_error = fed;
    return false;
  };
  HttpResult result = http_->Send(request);
  if (!decode_error.ok()) return decode_error;
  const std::string what = "watch " + resource.DisplayName() +
                           (ns.empty() ? "" : " in " + std::string(ns));
  if (!result.status.ok()) {
    const StatusCode code = result.status.code();
    if (code == StatusCode::kCancelled ||
        code == StatusCode::kFailedPrecondition ||
        code == StatusCode::kUnauthenticated) {
      return result.status;
    }
    return UnavailableError(what +
                            (streamed ? ": connection lost after " +
                                            std::to_string(decoder.events()) +
                                            " events: "
                                      : ": ") +
                            result.status.message());
  }
  if (!IsSuccess(result.response.status_code)) {
    return StatusFromHttpResponse(result.response.status_code,
                                  result.response.body);
  }
  return decoder.Finish();
}

StatusOr<nlohmann::json> CurlKubeClient::Create(const Resource& resource,
                                                std::string_view ns,
                                                const nlohmann::json& object) {
  return Call("POST", resource.CollectionPath(ns), object, "application/json",
              nullptr);
}

StatusOr<nlohmann::json> CurlKubeClient::Update(const Resource& resource,
                                                std::string_view ns,
                                                const nlohmann::json& object) {
  const std::string name = NameOf(object);
  if (name.empty()) {
    return InvalidArgumentError("update " + resource.DisplayName() +
                                ": the object has no metadata.name");
  }
  return Call("PUT", resource.ObjectPath(ns, name), object, "application/json",
              nullptr);
}

StatusOr<nlohmann::json> CurlKubeClient::UpdateStatus(
    const Resource& resource, std::string_view ns,
    const nlohmann::json& object) {
  const std::string name = NameOf(object);
  if (name.empty()) {
    return InvalidArgumentError("update " + resource.DisplayName() +
                                "/status: the object has no metadata.name");
  }
  return Call("PUT", resource.ObjectPath(ns, name, "status"), object,
              "application/json", nullptr);
}

Status CurlKubeClient::Delete(const Resource& resource, std::string_view ns,
                              std::string_view name,
                              const DeleteOptions& options) {
  std::optional<nlohmann::json> body;
  if (!options.uid_precondition.empty() || options.grace_period_seconds >= 0) {
    body = nlohmann::json{{"kind", "DeleteOptions"}, {"apiVersion", "v1"}};
    if (!options.uid_precondition.empty()) {
      (*body)["preconditions"] = {{"uid", options.uid_precondition}};
    }
    if (options.grace_period_seconds >= 0) {
      (*body)["gracePeriodSeconds"] = options.grace_period_seconds;
    }
  }
  return Call("DELETE", resource.ObjectPath(ns, name), body, "application/json",
              nullptr)
      .status();
}

StatusOr<nlohmann::json> CurlKubeClient::Patch(
    const Resource& resource, std::string_view ns, std::string_view name,
    PatchType type, const nlohmann::json& patch, std::string_view subresource) {
  return Call("PATCH", resource.ObjectPath(ns, name, subresource), patch,
              PatchContentType(type), nullptr);
}

Status CurlKubeClient::CreateBinding(
    std::string_view ns, std::string_view pod, std::string_view uid,
    std::string_view node,
    const std::map<std::string, std::string>& annotations) {
  return Call("POST", Resource::Pods().ObjectPath(ns, pod, "binding"),
              BuildBinding(ns, pod, uid, node, annotations), "application/json",
              nullptr)
      .status();
}

StatusOr<nlohmann::json> CurlKubeClient::CreateEvent(
    std::string_view ns, const ObjectReference& involved, std::string_view type,
    std::string_view reason, std::string_view message,
    std::string_view reporting_component) {
  EventFields fields;
  fields.type = std::string(type);
  fields.reason = std::string(reason);
  fields.message = std::string(message);
  fields.reporting_component = std::string(reporting_component);
  fields.reporting_instance = options_.reporting_instance;
  const auto now = clock_->Now();
  const uint64_t unique =
      static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(
              now.time_since_epoch())
              .count()) +
      event_counter_.fetch_add(1);
  const std::string event_ns = EventNamespace(ns, involved);
  return Call("POST", Resource::Events().CollectionPath(event_ns),
              BuildEvent(event_ns, involved, fields, now, unique),
              "application/json", nullptr);
}

}  // namespace gcushare::kube
