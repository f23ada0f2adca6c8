#include "tests/peers/nri_runtime/pod_messages.h"

#include <map>
#include <string>

#include "kube/json_fields.h"
#include "tests/peers/nri_runtime/fixtures.h"

namespace gcushare::nri_runtime {
namespace {

std::map<std::string, std::string> StringMap(const nlohmann::json* object) {
  std::map<std::string, std::string> out;
  if (object == nullptr || !object->is_object()) return out;
  for (const auto& [key, value] : object->items()) {
    if (value.is_string()) out[key] = value.get<std::string>();
  }
  return out;
}

// A stable seed from the pod's uid (the fixtures' ids derive from it).
uint64_t SeedOf(const std::string& uid) {
  return std::stoull(FixtureId(0, "pod-uid/" + uid).substr(0, 15), nullptr, 16);
}

}  // namespace

api::PodSandbox SandboxFromPod(const nlohmann::json& pod) {
  const std::string ns = kube::NamespaceOf(pod);
  const std::string name = kube::NameOf(pod);
  const std::string uid = kube::StringAt(pod, {"metadata", "uid"});
  api::PodSandbox sandbox = MakePodSandbox(
      ns, name, SeedOf(uid),
      StringMap(kube::FindPath(pod, {"metadata", "annotations"})));
  sandbox.set_uid(uid);
  auto& labels = *sandbox.mutable_labels();
  for (const auto& [key, value] :
       StringMap(kube::FindPath(pod, {"metadata", "labels"}))) {
    labels[key] = value;
  }
  labels["io.kubernetes.pod.uid"] = uid;
  auto& annotations = *sandbox.mutable_annotations();
  annotations["io.kubernetes.cri.sandbox-uid"] = uid;
  annotations["io.kubernetes.cri.sandbox-log-directory"] =
      "/var/log/pods/" + ns + "_" + name + "_" + uid;
  api::LinuxPodSandbox* linux = sandbox.mutable_linux();
  const std::string parent = "/kubepods/besteffort/pod" + uid;
  linux->set_cgroup_parent(parent);
  linux->set_cgroups_path(parent + "/" + sandbox.id());
  return sandbox;
}

api::Container ContainerFromPod(const api::PodSandbox& sandbox,
                                const nlohmann::json& container) {
  const std::string name = kube::StringAt(container, {"name"});
  api::Container c = MakeContainer(sandbox, name);
  const std::string image = kube::StringAt(container, {"image"});
  if (!image.empty()) {
    (*c.mutable_annotations())["io.kubernetes.cri.image-name"] = image;
  }
  std::vector<std::string> args;
  for (const char* field : {"command", "args"}) {
    const nlohmann::json* list = kube::FindPath(container, {field});
    if (list == nullptr || !list->is_array()) continue;
    for (const auto& arg : *list) {
      if (arg.is_string()) args.push_back(arg.get<std::string>());
    }
  }
  if (!args.empty()) {
    c.clear_args();
    for (const auto& arg : args) c.add_args(arg);
  }
  // The image's PATH, then the pod spec's env, then the service variables
  // kubelet adds, as containerd receives them.
  c.clear_env();
  c.add_env(
      "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
  c.add_env("HOSTNAME=" + sandbox.name());
  const nlohmann::json* env = kube::FindPath(container, {"env"});
  if (env != nullptr && env->is_array()) {
    for (const auto& entry : *env) {
      const nlohmann::json* value = kube::FindPath(entry, {"value"});
      const std::string key = kube::StringAt(entry, {"name"});
      if (key.empty() || value == nullptr || !value->is_string()) continue;
      c.add_env(key + "=" + value->get<std::string>());
    }
  }
  c.add_env("KUBERNETES_SERVICE_HOST=10.96.0.1");
  c.add_env("KUBERNETES_SERVICE_PORT=443");
  return c;
}

}  // namespace gcushare::nri_runtime
