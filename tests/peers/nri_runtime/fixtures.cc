#include "tests/peers/nri_runtime/fixtures.h"

#include <cstdio>

namespace gcushare::nri_runtime {
namespace {

uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t Hash(std::string_view s) {
  uint64_t h = 1469598103934665603ull;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

std::string Hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx",
                static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

std::string FixtureId(uint64_t seed, std::string_view salt) {
  uint64_t h = Hash(salt) ^ seed;
  std::string out;
  for (int i = 0; i < 4; ++i) out += Hex64(h = Mix(h + i));
  return out;
}

std::string FixtureUid(uint64_t seed) {
  std::string hex = FixtureId(seed, "uid");
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-4" + hex.substr(13, 3) +
         "-8" + hex.substr(17, 3) + "-" + hex.substr(20, 12);
}

api::PodSandbox MakePodSandbox(
    const std::string& ns, const std::string& name, uint64_t seed,
    const std::map<std::string, std::string>& annotations) {
  api::PodSandbox pod;
  const std::string id = FixtureId(seed, ns + "/" + name);
  const std::string uid = FixtureUid(seed);
  pod.set_id(id);
  pod.set_name(name);
  pod.set_uid(uid);
  pod.set_namespace_(ns);
  auto& labels = *pod.mutable_labels();
  labels["io.kubernetes.pod.uid"] = uid;
  labels["io.kubernetes.pod.namespace"] = ns;
  labels["io.kubernetes.pod.name"] = name;
  labels["io.cri-containerd.kind"] = "sandbox";
  auto& a = *pod.mutable_annotations();
  a["kubernetes.io/config.seen"] = "2026-11-23T09:24:59.569453168Z";
  a["kubernetes.io/config.source"] = "api";
  a["io.kubernetes.cri.container-type"] = "sandbox";
  a["io.kubernetes.cri.sandbox-id"] = id;
  a["io.kubernetes.cri.sandbox-name"] = name;
  a["io.kubernetes.cri.sandbox-namespace"] = ns;
  a["io.kubernetes.cri.sandbox-uid"] = uid;
  a["io.kubernetes.cri.sandbox-log-directory"] =
      "/var/log/pods/" + ns + "_" + name + "_" + uid;
  a["io.kubernetes.cri.sandbox-cpu-period"] = "100000";
  a["io.kubernetes.cri.sandbox-cpu-shares"] = "2";
  for (const auto& [key, value] : annotations) a[key] = value;
  api::LinuxPodSandbox* linux = pod.mutable_linux();
  const std::string parent = "/kubepods/besteffort/pod" + uid;
  linux->set_cgroup_parent(parent);
  linux->set_cgroups_path(parent + "/" + id);
  for (const char* type : {"pid", "ipc", "mount"}) {
    linux->add_namespaces()->set_type(type);
  }
  linux->mutable_pod_resources()->mutable_cpu()->mutable_shares()->set_value(2);
  linux->mutable_pod_resources()->mutable_cpu()->mutable_period()->set_value(
      100000);
  pod.set_pid(static_cast<uint32_t>(1000 + seed % 30000));
  return pod;
}

api::LinuxDevice CharDevice(const std::string& path, int64_t major,
                            int64_t minor, uint32_t mode) {
  api::LinuxDevice d;
  d.set_path(path);
  d.set_type("c");
  d.set_major(major);
  d.set_minor(minor);
  d.mutable_file_mode()->set_value(mode);
  return d;
}

api::Container MakeContainer(const api::PodSandbox& pod,
                             const std::string& name,
                             const std::vector<api::LinuxDevice>& devices) {
  api::Container c;
  const std::string id = FixtureId(pod.pid(), pod.id() + "/" + name);
  c.set_id(id);
  c.set_pod_sandbox_id(pod.id());
  c.set_name(name);
  c.set_state(api::CONTAINER_UNKNOWN);
  auto& labels = *c.mutable_labels();
  labels["io.cri-containerd.kind"] = "container";
  labels["io.kubernetes.container.name"] = name;
  labels["io.kubernetes.pod.name"] = pod.name();
  labels["io.kubernetes.pod.namespace"] = pod.namespace_();
  labels["io.kubernetes.pod.uid"] = pod.uid();
  auto& a = *c.mutable_annotations();
  a["io.kubernetes.container.hash"] = "335ae284";
  a["io.kubernetes.container.restartCount"] = "0";
  a["io.kubernetes.container.terminationMessagePath"] = "/dev/termination-log";
  a["io.kubernetes.container.terminationMessagePolicy"] = "File";
  a["io.kubernetes.cri.container-name"] = name;
  a["io.kubernetes.cri.container-type"] = "container";
  a["io.kubernetes.cri.image-name"] = "docker.io/library/busybox:latest";
  a["io.kubernetes.cri.sandbox-id"] = pod.id();
  a["io.kubernetes.cri.sandbox-name"] = pod.name();
  a["io.kubernetes.cri.sandbox-namespace"] = pod.namespace_();
  a["io.kubernetes.cri.sandbox-uid"] = pod.uid();
  for (const char* arg : {"/bin/sh", "-c", "env; ls -l /dev; sleep 3600"}) {
    c.add_args(arg);
  }
  for (const char* env :
       {"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOSTNAME=gcu-node-0", "KUBERNETES_SERVICE_HOST=10.96.0.1",
        "KUBERNETES_SERVICE_PORT=443"}) {
    c.add_env(env);
  }
  struct M {
    const char* dest;
    const char* type;
    const char* source;
    std::vector<const char*> options;
  };
  for (const M& m : std::vector<M>{
           {"/proc", "proc", "proc", {"nosuid", "noexec", "nodev"}},
           {"/dev",
            "tmpfs",
            "tmpfs",
            {"nosuid", "strictatime", "mode=755", "size=65536k"}},
           {"/dev/pts",
            "devpts",
            "devpts",
            {"nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620",
             "gid=5"}},
           {"/sys", "sysfs", "sysfs", {"nosuid", "noexec", "nodev", "ro"}},
           {"/dev/termination-log",
            "bind",
            "/var/lib/kubelet/pods/termination-log",
            {"rbind", "rprivate", "rw"}}}) {
    api::Mount* mount = c.add_mounts();
    mount->set_destination(m.dest);
    mount->set_type(m.type);
    mount->set_source(m.source);
    for (const char* o : m.options) mount->add_options(o);
  }
  c.mutable_hooks();
  api::LinuxContainer* linux = c.mutable_linux();
  linux->add_namespaces()->set_type("pid");
  for (const char* type : {"ipc", "uts", "network"}) {
    api::LinuxNamespace* ns = linux->add_namespaces();
    ns->set_type(type);
    ns->set_path("/proc/" + std::to_string(pod.pid()) + "/ns/" +
                 (std::string(type) == "network" ? "net" : type));
  }
  linux->add_namespaces()->set_type("mount");
  for (const api::LinuxDevice& d : devices) *linux->add_devices() = d;
  api::LinuxResources* resources = linux->mutable_resources();
  resources->mutable_cpu()->mutable_shares()->set_value(2);
  resources->mutable_cpu()->mutable_period()->set_value(100000);
  api::LinuxDeviceCgroup* deny = resources->add_devices();
  deny->set_allow(false);
  deny->set_access("rwm");
  for (const api::LinuxDevice& d : devices) {
    api::LinuxDeviceCgroup* allow = resources->add_devices();
    allow->set_allow(true);
    allow->set_type(d.type());
    allow->mutable_major()->set_value(d.major());
    allow->mutable_minor()->set_value(d.minor());
    allow->set_access("rwm");
  }
  linux->mutable_oom_score_adj()->set_value(1000);
  linux->set_cgroups_path(pod.linux().cgroup_parent() + "/" + id);
  return c;
}

}  // namespace gcushare::nri_runtime
