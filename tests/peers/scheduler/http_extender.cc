#include "tests/peers/scheduler/http_extender.h"

#include <chrono>
#include <map>
#include <utility>

namespace gcushare::scheduler {
namespace {

std::string MetadataString(const nlohmann::json& object, const char* key) {
  auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return "";
  auto value = metadata->find(key);
  return value != metadata->end() && value->is_string()
             ? value->get<std::string>()
             : std::string();
}

std::string NameOf(const nlohmann::json& object) {
  return MetadataString(object, "name");
}

}  // namespace

HttpExtender::HttpExtender(ExtenderConfig config, kube::HttpClient* http)
    : config_(std::move(config)), http_(http) {}

std::string HttpExtender::UrlFor(std::string_view verb) const {
  std::string url = config_.url_prefix;
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url + "/" + std::string(verb);
}

StatusOr<std::string> HttpExtender::Send(std::string_view verb,
                                         std::string body) {
  kube::HttpRequest request;
  request.method = "POST";
  request.url = UrlFor(verb);
  request.body = std::move(body);
  request.headers = {{"Content-Type", "application/json"},
                     {"Accept-Encoding", "gzip"},
                     {"Accept", ""}};
  request.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(
      config_.http_timeout);
  kube::HttpResult result = http_->Send(request);
  if (!result.status.ok()) {
    return Status(result.status.code(),
                  "Post \"" + request.url +
                      "\": " + std::string(result.status.message()));
  }
  if (result.response.status_code != 200) {
    return UnavailableError("failed " + std::string(verb) +
                            " with extender at URL " + request.url + ", code " +
                            std::to_string(result.response.status_code));
  }
  return std::move(result.response.body);
}

StatusOr<ExtenderFilterResult> HttpExtender::Filter(
    const nlohmann::json& pod, const std::vector<ObjectPtr>& nodes) {
  ExtenderFilterResult result;
  if (config_.filter_verb.empty()) {
    result.nodes = nodes;
    return result;
  }
  GCUSHARE_ASSIGN_OR_RETURN(
      std::string body,
      Send(config_.filter_verb,
           EncodeExtenderArgs(pod, nodes, config_.node_cache_capable)));
  GCUSHARE_ASSIGN_OR_RETURN(FilterReply reply, ParseFilterReply(body));
  if (!reply.error.empty()) return Status(StatusCode::kUnknown, reply.error);
  if (config_.node_cache_capable && reply.node_names.has_value()) {
    std::map<std::string, ObjectPtr> by_name;
    for (const ObjectPtr& node : nodes) by_name[NameOf(*node)] = node;
    for (const std::string& name : *reply.node_names) {
      auto it = by_name.find(name);
      if (it == by_name.end()) {
        return InvalidArgumentError(
            "extender \"" + config_.url_prefix +
            "\" claims a filtered node \"" + name +
            "\" which is not found in the input node list");
      }
      result.nodes.push_back(it->second);
    }
  } else if (reply.nodes.has_value()) {
    for (nlohmann::json& node : *reply.nodes) {
      result.nodes.push_back(
          std::make_shared<const nlohmann::json>(std::move(node)));
    }
  }
  result.failed = std::move(reply.failed_nodes);
  result.failed_and_unresolvable = std::move(reply.failed_and_unresolvable);
  return result;
}

StatusOr<std::vector<HostPriority>> HttpExtender::Prioritize(
    const nlohmann::json& pod, const std::vector<ObjectPtr>& nodes) {
  if (config_.prioritize_verb.empty()) {
    std::vector<HostPriority> zero;
    zero.reserve(nodes.size());
    for (const ObjectPtr& node : nodes) zero.push_back({NameOf(*node), 0});
    return zero;
  }
  GCUSHARE_ASSIGN_OR_RETURN(
      std::string body,
      Send(config_.prioritize_verb,
           EncodeExtenderArgs(pod, nodes, config_.node_cache_capable)));
  return ParseHostPriorityList(body);
}

Status HttpExtender::Bind(const nlohmann::json& pod, std::string_view node) {
  if (config_.bind_verb.empty()) {
    return InternalError("unexpected empty bindVerb in extender");
  }
  GCUSHARE_ASSIGN_OR_RETURN(
      std::string body,
      Send(config_.bind_verb,
           EncodeBindingArgs(MetadataString(pod, "name"),
                             MetadataString(pod, "namespace"),
                             MetadataString(pod, "uid"), node)));
  GCUSHARE_ASSIGN_OR_RETURN(std::string error, ParseBindingReply(body));
  if (!error.empty()) return Status(StatusCode::kUnknown, error);
  return OkStatus();
}

}  // namespace gcushare::scheduler
