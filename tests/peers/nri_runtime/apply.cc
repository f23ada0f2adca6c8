#include "tests/peers/nri_runtime/apply.h"

#include <map>
#include <string>
#include <vector>

namespace gcushare::nri_runtime {
namespace {

bool Removal(const std::string& key, std::string* target) {
  if (key.empty() || key[0] != '-') return false;
  *target = key.substr(1);
  return true;
}

template <typename Repeated, typename Pred>
void EraseIf(Repeated* items, Pred pred) {
  for (int i = items->size() - 1; i >= 0; --i) {
    if (pred(items->Get(i))) items->DeleteSubrange(i, 1);
  }
}

void ApplyEnv(api::Container& c, const api::KeyValue& kv) {
  std::string name;
  bool remove = Removal(kv.key(), &name);
  if (!remove) name = kv.key();
  auto* env = c.mutable_env();
  auto matches = [&](const std::string& entry) {
    return entry.compare(0, name.size() + 1, name + "=") == 0 || entry == name;
  };
  if (remove) {
    for (int i = env->size() - 1; i >= 0; --i) {
      if (matches(env->Get(i))) env->DeleteSubrange(i, 1);
    }
    return;
  }
  for (int i = 0; i < env->size(); ++i) {
    if (matches(env->Get(i))) {
      *env->Mutable(i) = name + "=" + kv.value();
      return;
    }
  }
  c.add_env(name + "=" + kv.value());
}

// NRI's LinuxDevice.AccessString(): read and write always, mknod only for
// block devices.
std::string AccessString(const api::LinuxDevice& d) {
  return d.type() == "b" ? "rwm" : "rw";
}

void ApplyDevice(api::Container& c, const api::LinuxDevice& d) {
  std::string path;
  bool remove = Removal(d.path(), &path);
  if (!remove) path = d.path();
  api::LinuxContainer* linux = c.mutable_linux();
  // Removal leaves linux.resources.devices alone, as containerd does.
  EraseIf(linux->mutable_devices(),
          [&](const api::LinuxDevice& e) { return e.path() == path; });
  if (remove) return;
  *linux->add_devices() = d;
  api::LinuxDeviceCgroup* rule = linux->mutable_resources()->add_devices();
  rule->set_allow(true);
  rule->set_type(d.type());
  rule->mutable_major()->set_value(d.major());
  rule->mutable_minor()->set_value(d.minor());
  rule->set_access(AccessString(d));
}

void ApplyMount(api::Container& c, const api::Mount& m) {
  std::string dest;
  bool remove = Removal(m.destination(), &dest);
  if (!remove) dest = m.destination();
  EraseIf(c.mutable_mounts(),
          [&](const api::Mount& e) { return e.destination() == dest; });
  if (!remove) *c.add_mounts() = m;
}

}  // namespace

api::Container ApplyAdjustment(const api::Container& container,
                               const api::ContainerAdjustment& adjust) {
  api::Container c = container;
  for (const auto& [key, value] : adjust.annotations()) {
    std::string target;
    if (Removal(key, &target)) {
      c.mutable_annotations()->erase(target);
    } else {
      (*c.mutable_annotations())[key] = value;
    }
  }
  for (const api::Mount& m : adjust.mounts()) ApplyMount(c, m);
  for (const api::KeyValue& kv : adjust.env()) ApplyEnv(c, kv);
  for (const api::LinuxDevice& d : adjust.linux().devices()) ApplyDevice(c, d);
  // adjust.linux().resources().devices() is ignored, as containerd does.
  if (adjust.args_size() > 0) {
    c.clear_args();
    for (int i = 0; i < adjust.args_size(); ++i) {
      if (i == 0 && adjust.args(0).empty()) continue;
      c.add_args(adjust.args(i));
    }
  }
  for (const api::CDIDevice& d : adjust.cdi_devices()) *c.add_cdi_devices() = d;
  return c;
}

nlohmann::ordered_json ContainerSpecJson(const api::Container& c) {
  nlohmann::ordered_json spec;
  nlohmann::ordered_json annotations = nlohmann::ordered_json::object();
  std::map<std::string, std::string> sorted(c.annotations().begin(),
                                            c.annotations().end());
  for (const auto& [k, v] : sorted) annotations[k] = v;
  spec["annotations"] = annotations;
  spec["process"]["args"] =
      std::vector<std::string>(c.args().begin(), c.args().end());
  spec["process"]["env"] =
      std::vector<std::string>(c.env().begin(), c.env().end());
  nlohmann::ordered_json mounts = nlohmann::ordered_json::array();
  for (const api::Mount& m : c.mounts()) {
    mounts.push_back(
        {{"destination", m.destination()},
         {"type", m.type()},
         {"source", m.source()},
         {"options",
          std::vector<std::string>(m.options().begin(), m.options().end())}});
  }
  spec["mounts"] = mounts;
  nlohmann::ordered_json devices = nlohmann::ordered_json::array();
  for (const api::LinuxDevice& d : c.linux().devices()) {
    nlohmann::ordered_json j = {{"path", d.path()},
                                {"type", d.type()},
                                {"major", d.major()},
                                {"minor", d.minor()}};
    if (d.has_file_mode()) j["fileMode"] = d.file_mode().value();
    devices.push_back(j);
  }
  spec["linux"]["devices"] = devices;
  nlohmann::ordered_json rules = nlohmann::ordered_json::array();
  for (const api::LinuxDeviceCgroup& r : c.linux().resources().devices()) {
    nlohmann::ordered_json j = {{"allow", r.allow()}};
    if (!r.type().empty()) j["type"] = r.type();
    if (r.has_major()) j["major"] = r.major().value();
    if (r.has_minor()) j["minor"] = r.minor().value();
    j["access"] = r.access();
    rules.push_back(j);
  }
  spec["linux"]["resources"]["devices"] = rules;
  if (c.cdi_devices_size() > 0) {
    std::vector<std::string> names;
    for (const auto& d : c.cdi_devices()) names.push_back(d.name());
    spec["cdiDevices"] = names;
  }
  return spec;
}

}  // namespace gcushare::nri_runtime
