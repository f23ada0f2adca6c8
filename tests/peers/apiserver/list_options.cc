#include "tests/peers/apiserver/list_options.h"

#include <cctype>
#include <vector>

#include "tests/peers/apiserver/object_meta.h"

namespace gcushare::apiserver {
namespace {

std::optional<std::string> Param(const QueryParams& params, const char* key) {
  auto it = params.find(key);
  if (it == params.end()) return std::nullopt;
  return it->second;
}

std::optional<int64_t> ParseInt(const std::string& s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return std::nullopt;
  int64_t v = 0;
  for (; i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return s[0] == '-' ? -v : v;
}

FieldError Forbidden(const char* field, std::string detail) {
  FieldError e;
  e.type = FieldError::Type::kForbidden;
  e.field = field;
  e.detail = std::move(detail);
  return e;
}

FieldError NotSupported(const char* field, const std::string& value,
                        std::vector<std::string> supported) {
  FieldError e;
  e.type = FieldError::Type::kNotSupported;
  e.field = field;
  e.value = GoQuote(value);
  for (std::string& s : supported) s = GoQuote(s);
  e.supported = std::move(supported);
  return e;
}

std::vector<FieldError> Validate(const ListOptions& o) {
  std::vector<FieldError> errs;
  const std::string& match = o.resource_version_match;
  if (o.watch) {
    if (o.send_initial_events.has_value()) {
      if (match != "NotOlderThan") {
        errs.push_back(Forbidden("resourceVersionMatch",
                                 "sendInitialEvents requires setting "
                                 "resourceVersionMatch to NotOlderThan"));
      }
      if (*o.send_initial_events && !o.allow_watch_bookmarks) {
        errs.push_back(Forbidden("allowWatchBookmarks",
                                 "sendInitialEvents requires setting "
                                 "allowWatchBookmarks to true"));
      }
    }
    if (!match.empty()) {
      if (!o.send_initial_events.has_value()) {
        errs.push_back(Forbidden("resourceVersionMatch",
                                 "resourceVersionMatch is forbidden for watch "
                                 "unless sendInitialEvents is provided"));
      }
      if (match != "NotOlderThan") {
        errs.push_back(
            NotSupported("resourceVersionMatch", match, {"NotOlderThan"}));
      }
      if (!o.continue_token.empty()) {
        errs.push_back(Forbidden(
            "resourceVersionMatch",
            "resourceVersionMatch is forbidden when continue is provided"));
      }
    }
    return errs;
  }
  if (!match.empty()) {
    if (o.resource_version.empty()) {
      errs.push_back(Forbidden(
          "resourceVersionMatch",
          "resourceVersionMatch is forbidden unless resourceVersion is "
          "provided"));
    }
    if (!o.continue_token.empty()) {
      errs.push_back(Forbidden(
          "resourceVersionMatch",
          "resourceVersionMatch is forbidden when continue is provided"));
    }
    if (match != "Exact" && match != "NotOlderThan") {
      errs.push_back(NotSupported("resourceVersionMatch", match,
                                  {"Exact", "NotOlderThan", ""}));
    }
    if (match == "Exact" && o.resource_version == "0") {
      errs.push_back(Forbidden("resourceVersionMatch",
                               "resourceVersionMatch \"exact\" is forbidden "
                               "for resourceVersion \"0\""));
    }
  }
  if (o.send_initial_events.has_value()) {
    errs.push_back(Forbidden("sendInitialEvents",
                             "sendInitialEvents is forbidden for list"));
  }
  return errs;
}

}  // namespace

std::function<bool(const Json&)> MakeObjectFilter(const ListOptions& options,
                                                  const ResourceKind& kind,
                                                  const std::string& ns,
                                                  const std::string& name) {
  return [labels = options.label_selector, fields = options.field_selector,
          kind = &kind, ns, name](const Json& object) {
    if (!ns.empty() && MetaString(object, "namespace") != ns) return false;
    if (!name.empty() && MetaString(object, "name") != name) return false;
    if (!labels.empty()) {
      const Json* l = MetaLabels(object);
      if (!labels.Matches(l == nullptr ? Json() : *l)) return false;
    }
    if (!fields.empty() && !fields.Matches(kind->selectable_fields(object))) {
      return false;
    }
    return true;
  };
}

std::optional<bool> ParseGoBool(const std::string& s) {
  if (s == "1" || s == "t" || s == "T" || s == "true" || s == "TRUE" ||
      s == "True") {
    return true;
  }
  if (s == "0" || s == "f" || s == "F" || s == "false" || s == "FALSE" ||
      s == "False") {
    return false;
  }
  return std::nullopt;
}

ApiResult<ListOptions> ParseListOptions(const QueryParams& params,
                                        const ResourceKind& kind) {
  ListOptions o;
  auto parse_bool = [&](const char* key,
                        bool* out) -> std::optional<ApiStatus> {
    auto v = Param(params, key);
    if (!v) return std::nullopt;
    auto b = ParseGoBool(*v);
    if (!b) {
      return BadRequestStatus("strconv.ParseBool: parsing " + GoQuote(*v) +
                              ": invalid syntax");
    }
    *out = *b;
    return std::nullopt;
  };
  if (auto e = parse_bool("watch", &o.watch)) return *e;
  if (auto e = parse_bool("allowWatchBookmarks", &o.allow_watch_bookmarks)) {
    return *e;
  }
  if (auto v = Param(params, "sendInitialEvents")) {
    bool b = false;
    if (auto e = parse_bool("sendInitialEvents", &b)) return *e;
    o.send_initial_events = b;
  }
  if (auto v = Param(params, "labelSelector")) {
    auto sel = LabelSelector::Parse(*v);
    if (!sel.ok()) return BadRequestStatus(sel.status().message());
    o.label_selector = std::move(*sel);
  }
  if (auto v = Param(params, "fieldSelector")) {
    auto sel = FieldSelector::Parse(*v);
    if (!sel.ok()) return BadRequestStatus(sel.status().message());
    Status valid = sel->Validate(kind.selectable_fields(Json::object()));
    if (!valid.ok()) return BadRequestStatus(valid.message());
    o.field_selector = std::move(*sel);
  }
  o.resource_version = Param(params, "resourceVersion").value_or("");
  o.resource_version_match = Param(params, "resourceVersionMatch").value_or("");
  o.continue_token = Param(params, "continue").value_or("");
  if (auto v = Param(params, "timeoutSeconds")) {
    auto n = ParseInt(*v);
    if (!n) {
      return BadRequestStatus("strconv.ParseInt: parsing " + GoQuote(*v) +
                              ": invalid syntax");
    }
    o.timeout_seconds = *n;
  }
  if (auto v = Param(params, "limit")) {
    auto n = ParseInt(*v);
    if (!n) {
      return BadRequestStatus("strconv.ParseInt: parsing " + GoQuote(*v) +
                              ": invalid syntax");
    }
    o.limit = *n < 0 ? 0 : *n;
  }
  std::vector<FieldError> errs = Validate(o);
  if (!errs.empty())
    return InvalidStatus("meta.k8s.io", "ListOptions", "", errs);
  return o;
}

}  // namespace gcushare::apiserver
