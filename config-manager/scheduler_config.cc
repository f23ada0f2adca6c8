#include "config-manager/scheduler_config.h"

#include <exception>

#include "config-manager/yaml_text.h"
#include "contract/names.h"

namespace gcushare::config_manager {
namespace {

std::string ScalarOr(const YAML::Node& node, const std::string& fallback) {
  try {
    return node && node.IsScalar() ? node.Scalar() : fallback;
  } catch (const std::exception&) {
    return fallback;
  }
}

// Our entries, in order, appended to `extenders`.
void AppendOurEntries(const ExtenderEntryOptions& options,
                      YAML::Node& extenders) {
  extenders.push_back(MakeExtenderEntry(options));
  if (options.rank_plain_pods) extenders.push_back(MakePlainEntry(options));
}

}  // namespace

std::string ExtenderUrl(std::string_view host, int port) {
  std::string h(host);
  if (h.find(':') != std::string::npos && h.front() != '[') h = "[" + h + "]";
  return "http://" + h + ":" + std::to_string(port) +
         std::string(contract::kExtenderPathPrefix);
}

YAML::Node MakeExtenderEntry(const ExtenderEntryOptions& options) {
  YAML::Node entry(YAML::NodeType::Map);
  entry["urlPrefix"] = options.url_prefix;
  entry["filterVerb"] = "filter";
  entry["prioritizeVerb"] = "prioritize";
  entry["bindVerb"] = "bind";
  entry["weight"] = options.weight;
  entry["enableHTTPS"] = false;
  entry["nodeCacheCapable"] = true;
  entry["httpTimeout"] = options.http_timeout;
  entry["ignorable"] = false;
  YAML::Node resources(YAML::NodeType::Sequence);
  for (std::string_view name :
       {contract::kResourceMemory, contract::kResourceCount}) {
    YAML::Node resource(YAML::NodeType::Map);
    resource["name"] = std::string(name);
    resource["ignoredByScheduler"] = false;
    resources.push_back(resource);
  }
  entry["managedResources"] = resources;
  return entry;
}

YAML::Node MakePlainEntry(const ExtenderEntryOptions& options) {
  YAML::Node entry(YAML::NodeType::Map);
  entry["urlPrefix"] = options.url_prefix;
  entry["prioritizeVerb"] = "plain/prioritize";
  entry["weight"] = options.plain_weight;
  entry["enableHTTPS"] = false;
  entry["nodeCacheCapable"] = true;
  entry["httpTimeout"] = options.http_timeout;
  entry["ignorable"] = true;
  return entry;
}

bool IsOurEntry(const YAML::Node& entry) {
  if (!entry.IsMap()) return false;
  std::string url = ScalarOr(entry["urlPrefix"], "");
  while (!url.empty() && url.back() == '/') url.pop_back();
  const std::string_view suffix = contract::kExtenderPathPrefix;
  return url.size() >= suffix.size() &&
         url.compare(url.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool HasOurEntry(std::string_view config_text) {
  StatusOr<YAML::Node> config = ParseYamlMap(config_text, "config");
  return config.ok() && HasOurEntry(*config);
}

bool HasOurEntry(const YAML::Node& config) {
  const YAML::Node extenders = config["extenders"];
  if (!extenders || !extenders.IsSequence()) return false;
  for (const YAML::Node& entry : extenders) {
    if (IsOurEntry(entry)) return true;
  }
  return false;
}

std::string NewSchedulerConfig(const std::string& api_version,
                               const std::string& kubeconfig, bool leader_elect,
                               const ExtenderEntryOptions& options) {
  YAML::Node config(YAML::NodeType::Map);
  config["apiVersion"] = api_version;
  config["kind"] = "KubeSchedulerConfiguration";
  config["clientConnection"]["kubeconfig"] = kubeconfig;
  config["leaderElection"]["leaderElect"] = leader_elect;
  YAML::Node extenders(YAML::NodeType::Sequence);
  AppendOurEntries(options, extenders);
  config["extenders"] = extenders;
  return "# Written by gcushare-config-manager: kube-scheduler with the "
         "GCUShare extender.\n# Removed again on uninstall.\n" +
         EmitYaml(config);
}

StatusOr<std::string> AddOurExtender(std::string_view original,
                                     std::string_view what,
                                     const ExtenderEntryOptions& options) {
  GCUSHARE_ASSIGN_OR_RETURN(YAML::Node config, ParseYamlMap(original, what));
  return AddOurExtender(config, what, options);
}

StatusOr<std::string> AddOurExtender(YAML::Node config, std::string_view what,
                                     const ExtenderEntryOptions& options) {
  if (ScalarOr(config["kind"], "") != "KubeSchedulerConfiguration") {
    return InvalidArgumentError(std::string(what) +
                                ": kind is not KubeSchedulerConfiguration");
  }
  if (ScalarOr(config["apiVersion"], "")
          .rfind("kubescheduler.config.k8s.io/", 0) != 0) {
    return InvalidArgumentError(
        std::string(what) +
        ": apiVersion is not kubescheduler.config.k8s.io/*");
  }
  YAML::Node old = config["extenders"];
  if (old && !old.IsNull() && !old.IsSequence()) {
    return InvalidArgumentError(std::string(what) +
                                ": extenders is not a list");
  }
  YAML::Node extenders(YAML::NodeType::Sequence);
  bool placed = false;
  if (old && old.IsSequence()) {
    for (const YAML::Node& entry : old) {
      if (IsOurEntry(entry)) {
        if (!placed) AppendOurEntries(options, extenders);
        placed = true;
        continue;
      }
      if (entry.IsMap() && !ScalarOr(entry["bindVerb"], "").empty()) {
        return InvalidArgumentError(
            std::string(what) + ": extender " +
            ScalarOr(entry["urlPrefix"], "(no urlPrefix)") +
            " already binds pods; kube-scheduler allows one binding "
            "extender, and GCUShare's must bind");
      }
      extenders.push_back(entry);
    }
  }
  if (!placed) AppendOurEntries(options, extenders);
  config["extenders"] = extenders;
  return EmitYamlToWrite(config, what);
}

}  // namespace gcushare::config_manager
