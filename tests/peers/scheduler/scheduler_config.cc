#include "tests/peers/scheduler/scheduler_config.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

namespace gcushare::scheduler {
namespace {

constexpr std::string_view kApiVersion = "kubescheduler.config.k8s.io/v1";
constexpr std::string_view kKind = "KubeSchedulerConfiguration";

const std::set<std::string_view>& TopLevelKeys() {
  static const auto* const kKeys = new std::set<std::string_view>{
      "apiVersion",
      "kind",
      "parallelism",
      "leaderElection",
      "clientConnection",
      "healthzBindAddress",
      "metricsBindAddress",
      "enableProfiling",
      "enableContentionProfiling",
      "percentageOfNodesToScore",
      "podInitialBackoffSeconds",
      "podMaxBackoffSeconds",
      "profiles",
      "extenders",
      "delayCacheUntilActive",
  };
  return *kKeys;
}

const std::set<std::string_view>& ProfileKeys() {
  static const auto* const kKeys = new std::set<std::string_view>{
      "schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig"};
  return *kKeys;
}

const std::set<std::string_view>& ExtenderKeys() {
  static const auto* const kKeys = new std::set<std::string_view>{
      "urlPrefix",   "filterVerb",       "preemptVerb",      "prioritizeVerb",
      "weight",      "bindVerb",         "enableHTTPS",      "tlsConfig",
      "httpTimeout", "nodeCacheCapable", "managedResources", "ignorable"};
  return *kKeys;
}

const std::set<std::string_view>& ManagedResourceKeys() {
  static const auto* const kKeys =
      new std::set<std::string_view>{"name", "ignoredByScheduler"};
  return *kKeys;
}

// Reads one document with a Status for every problem.
class Decoder {
 public:
  explicit Decoder(std::string_view source) : source_(source) {}

  Status Error(const std::string& field, const std::string& what) const {
    return InvalidArgumentError(std::string(source_) + ": " + field + ": " +
                                what);
  }

  // The strict decoder's error for a key of `path` that is not a field.
  Status UnknownField(const std::string& path, const std::string& key) const {
    const std::string field = path.empty() ? key : path + "." + key;
    return InvalidArgumentError(std::string(source_) +
                                ": strict decoding error: unknown field \"" +
                                field + "\"");
  }

  Status CheckKeys(const YAML::Node& map, const std::string& path,
                   const std::set<std::string_view>& allowed) const {
    if (!map.IsMap()) {
      return Error(path.empty() ? "(document)" : path, "must be a mapping");
    }
    for (const auto& entry : map) {
      const std::string key = entry.first.Scalar();
      if (allowed.count(key) == 0) {
        return UnknownField(path, key);
      }
    }
    return OkStatus();
  }

  StatusOr<std::string> String(const YAML::Node& node,
                               const std::string& field) const {
    if (!node.IsDefined() || node.IsNull()) return std::string();
    if (!node.IsScalar()) return Error(field, "must be a string");
    return node.Scalar();
  }

  StatusOr<bool> Bool(const YAML::Node& node, const std::string& field) const {
    if (!node.IsDefined() || node.IsNull()) return false;
    bool value = false;
    if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
      return Error(field, "must be true or false");
    }
    return value;
  }

  StatusOr<int64_t> Int(const YAML::Node& node,
                        const std::string& field) const {
    if (!node.IsDefined() || node.IsNull()) return int64_t{0};
    int64_t value = 0;
    if (!node.IsScalar() || !YAML::convert<int64_t>::decode(node, value)) {
      return Error(field, "must be an integer");
    }
    return value;
  }

 private:
  std::string_view source_;
};

StatusOr<ExtenderConfig> DecodeExtender(const Decoder& d, const YAML::Node& e,
                                        const std::string& path) {
  GCUSHARE_RETURN_IF_ERROR(d.CheckKeys(e, path, ExtenderKeys()));
  ExtenderConfig config;
  GCUSHARE_ASSIGN_OR_RETURN(config.url_prefix,
                            d.String(e["urlPrefix"], path + ".urlPrefix"));
  GCUSHARE_ASSIGN_OR_RETURN(config.filter_verb,
                            d.String(e["filterVerb"], path + ".filterVerb"));
  GCUSHARE_ASSIGN_OR_RETURN(config.preempt_verb,
                            d.String(e["preemptVerb"], path + ".preemptVerb"));
  GCUSHARE_ASSIGN_OR_RETURN(
      config.prioritize_verb,
      d.String(e["prioritizeVerb"], path + ".prioritizeVerb"));
  GCUSHARE_ASSIGN_OR_RETURN(config.bind_verb,
                            d.String(e["bindVerb"], path + ".bindVerb"));
  GCUSHARE_ASSIGN_OR_RETURN(config.weight,
                            d.Int(e["weight"], path + ".weight"));
  GCUSHARE_ASSIGN_OR_RETURN(
      config.node_cache_capable,
      d.Bool(e["nodeCacheCapable"], path + ".nodeCacheCapable"));
  GCUSHARE_ASSIGN_OR_RETURN(config.ignorable,
                            d.Bool(e["ignorable"], path + ".ignorable"));
  GCUSHARE_ASSIGN_OR_RETURN(bool https,
                            d.Bool(e["enableHTTPS"], path + ".enableHTTPS"));
  if (https) {
    return d.Error(path + ".enableHTTPS",
                   "HTTPS is not supported by the stand-in kube-scheduler; "
                   "use enableHTTPS: false and an http:// urlPrefix");
  }
  if (e["tlsConfig"].IsDefined() && !e["tlsConfig"].IsNull()) {
    return d.Error(path + ".tlsConfig",
                   "TLS is not supported by the stand-in kube-scheduler");
  }
  if (config.url_prefix.rfind("http://", 0) != 0) {
    return d.Error(path + ".urlPrefix",
                   "Invalid value: \"" + config.url_prefix +
                       "\": must start with http:// (no HTTPS in the "
                       "stand-in)");
  }
  GCUSHARE_ASSIGN_OR_RETURN(std::string timeout,
                            d.String(e["httpTimeout"], path + ".httpTimeout"));
  if (!timeout.empty()) {
    auto parsed = ParseGoDuration(timeout);
    if (!parsed.ok()) {
      return d.Error(path + ".httpTimeout", parsed.status().message());
    }
    if (parsed->count() < 0) {
      return d.Error(path + ".httpTimeout", "must not be negative");
    }
    if (parsed->count() > 0) config.http_timeout = *parsed;
  }
  if (config.weight < 0) {
    return d.Error(path + ".weight",
                   "Invalid value: " + std::to_string(config.weight) +
                       ": must have a positive weight applied to it");
  }
  if (!config.prioritize_verb.empty() && config.weight <= 0) {
    return d.Error(path + ".weight",
                   "Invalid value: " + std::to_string(config.weight) +
                       ": must have a positive weight applied to it");
  }
  const YAML::Node resources = e["managedResources"];
  if (resources.IsDefined() && !resources.IsNull()) {
    if (!resources.IsSequence()) {
      return d.Error(path + ".managedResources", "must be a list");
    }
    std::set<std::string> seen;
    for (size_t j = 0; j < resources.size(); ++j) {
      const std::string rpath =
          path + ".managedResources[" + std::to_string(j) + "]";
      GCUSHARE_RETURN_IF_ERROR(
          d.CheckKeys(resources[j], rpath, ManagedResourceKeys()));
      ManagedResource resource;
      GCUSHARE_ASSIGN_OR_RETURN(
          resource.name, d.String(resources[j]["name"], rpath + ".name"));
      GCUSHARE_ASSIGN_OR_RETURN(resource.ignored_by_scheduler,
                                d.Bool(resources[j]["ignoredByScheduler"],
                                       rpath + ".ignoredByScheduler"));
      if (!IsExtendedResourceName(resource.name)) {
        return d.Error(rpath + ".name",
                       "Invalid value: \"" + resource.name +
                           "\": is invalid extended resource name");
      }
      if (!seen.insert(resource.name).second) {
        return d.Error(rpath + ".name",
                       "Invalid value: \"" + resource.name +
                           "\": duplicate extender managed resource name");
      }
      config.managed_resources.push_back(std::move(resource));
    }
  }
  return config;
}

StatusOr<SchedulerConfig> Decode(const Decoder& d, const YAML::Node& root) {
  GCUSHARE_RETURN_IF_ERROR(d.CheckKeys(root, "", TopLevelKeys()));
  GCUSHARE_ASSIGN_OR_RETURN(std::string api_version,
                            d.String(root["apiVersion"], "apiVersion"));
  if (api_version != kApiVersion) {
    return d.Error("apiVersion", "\"" + api_version +
                                     "\" is not supported; "
                                     "want \"" +
                                     std::string(kApiVersion) + "\"");
  }
  GCUSHARE_ASSIGN_OR_RETURN(std::string kind, d.String(root["kind"], "kind"));
  if (kind != kKind) {
    return d.Error("kind",
                   "\"" + kind + "\"; want \"" + std::string(kKind) + "\"");
  }
  SchedulerConfig config;
  const YAML::Node profiles = root["profiles"];
  if (profiles.IsDefined() && !profiles.IsNull()) {
    if (!profiles.IsSequence()) return d.Error("profiles", "must be a list");
    for (size_t i = 0; i < profiles.size(); ++i) {
      const std::string path = "profiles[" + std::to_string(i) + "]";
      GCUSHARE_RETURN_IF_ERROR(d.CheckKeys(profiles[i], path, ProfileKeys()));
      GCUSHARE_ASSIGN_OR_RETURN(
          std::string name,
          d.String(profiles[i]["schedulerName"], path + ".schedulerName"));
      if (name.empty()) name = std::string(kDefaultSchedulerName);
      for (const std::string& earlier : config.profile_names) {
        if (earlier == name) {
          return d.Error(path + ".schedulerName",
                         "Duplicate value: \"" + name + "\"");
        }
      }
      config.profile_names.push_back(std::move(name));
    }
  }
  const YAML::Node extenders = root["extenders"];
  if (extenders.IsDefined() && !extenders.IsNull()) {
    if (!extenders.IsSequence()) return d.Error("extenders", "must be a list");
    int binders = 0;
    for (size_t i = 0; i < extenders.size(); ++i) {
      const std::string path = "extenders[" + std::to_string(i) + "]";
      GCUSHARE_ASSIGN_OR_RETURN(ExtenderConfig extender,
                                DecodeExtender(d, extenders[i], path));
      if (!extender.bind_verb.empty()) ++binders;
      config.extenders.push_back(std::move(extender));
    }
    if (binders > 1) {
      return d.Error("extenders",
                     "Invalid value: \"found " + std::to_string(binders) +
                         " extenders implementing bind\": only one extender "
                         "can implement bind");
    }
  }
  return config;
}

bool NamesManagedResource(const nlohmann::json& containers,
                          const ExtenderConfig& config) {
  if (!containers.is_array()) return false;
  for (const nlohmann::json& container : containers) {
    if (!container.is_object()) continue;
    auto resources = container.find("resources");
    if (resources == container.end() || !resources->is_object()) continue;
    for (const char* list : {"requests", "limits"}) {
      auto entries = resources->find(list);
      if (entries == resources->end() || !entries->is_object()) continue;
      for (const ManagedResource& managed : config.managed_resources) {
        if (entries->contains(managed.name)) return true;
      }
    }
  }
  return false;
}

}  // namespace

bool ExtenderConfig::IsInterested(const nlohmann::json& pod) const {
  if (managed_resources.empty()) return true;
  auto spec = pod.find("spec");
  if (spec == pod.end() || !spec->is_object()) return false;
  for (const char* list : {"containers", "initContainers"}) {
    auto containers = spec->find(list);
    if (containers != spec->end() && NamesManagedResource(*containers, *this)) {
      return true;
    }
  }
  return false;
}

bool ExtenderConfig::IgnoresInScheduler(std::string_view resource) const {
  for (const ManagedResource& managed : managed_resources) {
    if (managed.name == resource && managed.ignored_by_scheduler) return true;
  }
  return false;
}

StatusOr<SchedulerConfig> ParseSchedulerConfig(std::string_view yaml_text,
                                               std::string_view source) {
  Decoder decoder(source);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& e) {
    return InvalidArgumentError(std::string(source) +
                                ": not valid YAML: " + e.what());
  }
  try {
    return Decode(decoder, root);
  } catch (const YAML::Exception& e) {
    return InvalidArgumentError(std::string(source) + ": " + e.what());
  }
}

StatusOr<SchedulerConfig> LoadSchedulerConfig(const std::string& path) {
  std::ifstream file(path);
  if (!file) return NotFoundError(path + ": cannot read the file");
  std::ostringstream text;
  text << file.rdbuf();
  return ParseSchedulerConfig(text.str(), path);
}

StatusOr<std::chrono::nanoseconds> ParseGoDuration(std::string_view text) {
  const std::string original(text);
  const auto invalid = [&] {
    return InvalidArgumentError("time: invalid duration \"" + original + "\"");
  };
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text == "0") return std::chrono::nanoseconds(0);
  if (text.empty()) return invalid();
  long double total = 0;
  while (!text.empty()) {
    size_t digits = 0;
    while (
        digits < text.size() &&
        ((text[digits] >= '0' && text[digits] <= '9') || text[digits] == '.')) {
      ++digits;
    }
    if (digits == 0) return invalid();
    const std::string number(text.substr(0, digits));
    if (number == "." || number.find('.') != number.rfind('.')) {
      return invalid();
    }
    text.remove_prefix(digits);
    size_t unit_length = 0;
    while (unit_length < text.size() &&
           !(text[unit_length] >= '0' && text[unit_length] <= '9') &&
           text[unit_length] != '.') {
      ++unit_length;
    }
    const std::string_view unit = text.substr(0, unit_length);
    text.remove_prefix(unit_length);
    long double scale = 0;
    if (unit == "ns") {
      scale = 1;
    } else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") {
      scale = 1e3;
    } else if (unit == "ms") {
      scale = 1e6;
    } else if (unit == "s") {
      scale = 1e9;
    } else if (unit == "m") {
      scale = 60e9;
    } else if (unit == "h") {
      scale = 3600e9;
    } else if (unit.empty()) {
      return InvalidArgumentError("time: missing unit in duration \"" +
                                  original + "\"");
    } else {
      return InvalidArgumentError("time: unknown unit \"" + std::string(unit) +
                                  "\" in duration \"" + original + "\"");
    }
    total += std::stold(number) * scale;
  }
  if (total > 9.2e18L) return invalid();
  const auto nanos = static_cast<int64_t>(std::llround(total));
  return std::chrono::nanoseconds(negative ? -nanos : nanos);
}

bool IsExtendedResourceName(std::string_view name) {
  const size_t slash = name.find('/');
  if (slash == std::string_view::npos || slash == 0 ||
      slash + 1 >= name.size()) {
    return false;
  }
  if (name.find('/', slash + 1) != std::string_view::npos) return false;
  const std::string_view domain = name.substr(0, slash);
  if (domain == "kubernetes.io" ||
      (domain.size() > 14 &&
       domain.substr(domain.size() - 14) == ".kubernetes.io")) {
    return false;
  }
  if (name.rfind("requests.", 0) == 0) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '-' || c == '.' ||
                    c == '_' || c == '/';
    if (!ok) return false;
  }
  return true;
}

}  // namespace gcushare::scheduler
