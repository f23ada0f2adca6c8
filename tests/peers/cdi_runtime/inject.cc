#include "tests/peers/cdi_runtime/inject.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cerrno>
#include <utility>

namespace gcushare::peers::cdi_runtime {
namespace {

// Number of '/' in the lexically cleaned path (Go's filepath.Clean).
int PathDepth(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view part = path.substr(start, end - start);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = end + 1;
  }
  bool absolute = !path.empty() && path.front() == '/';
  if (parts.empty()) return absolute ? 1 : 0;  // "/" or ".".
  return static_cast<int>(parts.size()) - (absolute ? 0 : 1);
}

void AddEnv(const std::string& entry, std::vector<std::string>& env) {
  std::string_view key = std::string_view(entry).substr(0, entry.find('='));
  for (std::string& existing : env) {
    std::string_view existing_key =
        std::string_view(existing).substr(0, existing.find('='));
    if (existing_key == key) {
      existing = entry;
      return;
    }
  }
  env.push_back(entry);
}

}  // namespace

std::optional<std::string> ContainerView::Env(std::string_view name) const {
  for (const std::string& entry : env) {
    size_t eq = entry.find('=');
    if (eq != std::string::npos &&
        std::string_view(entry).substr(0, eq) == name) {
      return entry.substr(eq + 1);
    }
  }
  return std::nullopt;
}

const cdi::DeviceNode* ContainerView::Device(std::string_view path) const {
  for (const cdi::DeviceNode& device : devices) {
    if (device.path == path) return &device;
  }
  return nullptr;
}

StatusOr<HostDeviceInfo> RealDeviceInfo(const std::string& host_path) {
  struct stat st;
  if (::lstat(host_path.c_str(), &st) != 0) {
    return ErrnoToStatus(errno, "lstat " + host_path);
  }
  HostDeviceInfo info;
  switch (st.st_mode & S_IFMT) {
    case S_IFBLK:
      info.type = "b";
      break;
    case S_IFCHR:
      info.type = "c";
      break;
    case S_IFIFO:
      info.type = "p";
      break;
    default:
      return InvalidArgumentError("not a device node");
  }
  info.major = major(st.st_rdev);
  info.minor = minor(st.st_rdev);
  return info;
}

Status ApplyEdits(const cdi::ContainerEdits& edits,
                  const DeviceInfoFn& device_info, ContainerView& view) {
  for (const std::string& entry : edits.env) AddEnv(entry, view.env);

  for (cdi::DeviceNode node : edits.device_nodes) {
    if (node.host_path.empty()) node.host_path = node.path;
    int64_t major = node.major.value_or(0);
    if (node.type.empty() || (major == 0 && node.type != "p")) {
      StatusOr<HostDeviceInfo> info = device_info(node.host_path);
      if (!info.ok()) {
        return Status(info.status().code(),
                      "failed to stat CDI host device \"" + node.host_path +
                          "\": " + info.status().message());
      }
      if (node.type.empty()) {
        node.type = info->type;
      } else if (node.type != info->type) {
        return InvalidArgumentError(
            "CDI device (\"" + node.path + "\", \"" + node.host_path +
            "\"), host type mismatch (" + node.type + ", " + info->type + ")");
      }
      if (major == 0 && node.type != "p") {
        node.major = info->major;
        node.minor = info->minor;
      }
    }
    if (!node.uid && view.uid > 0) node.uid = view.uid;
    if (!node.gid && view.gid > 0) node.gid = view.gid;
    std::erase_if(view.devices, [&](const cdi::DeviceNode& existing) {
      return existing.path == node.path;
    });
    if (node.type == "b" || node.type == "c") {
      std::string access = node.permissions;
      if (access.empty()) {
        access = "rwm";
      } else if (access == "none") {
        access = "";
      }
      view.device_rules.push_back(
          DeviceCgroupRule{true, node.type, node.major.value_or(0),
                           node.minor.value_or(0), access});
    }
    view.devices.push_back(std::move(node));
  }

  if (!edits.mounts.empty()) {
    for (const cdi::Mount& mount : edits.mounts) {
      std::erase_if(view.mounts, [&](const cdi::Mount& existing) {
        return existing.container_path == mount.container_path;
      });
      view.mounts.push_back(mount);
    }
    std::stable_sort(view.mounts.begin(), view.mounts.end(),
                     [](const cdi::Mount& a, const cdi::Mount& b) {
                       return PathDepth(a.container_path) <
                              PathDepth(b.container_path);
                     });
  }

  for (const cdi::Hook& hook : edits.hooks) view.hooks.push_back(hook);

  for (uint32_t gid : edits.additional_gids) {
    if (gid == 0) continue;
    if (std::find(view.additional_gids.begin(), view.additional_gids.end(),
                  gid) == view.additional_gids.end()) {
      view.additional_gids.push_back(gid);
    }
  }
  return OkStatus();
}

StatusOr<ContainerView> InjectDevices(
    const CdiRegistry& registry, const std::vector<std::string>& device_ids,
    const ContainerView& base, const DeviceInfoFn& device_info) {
  cdi::ContainerEdits all;
  auto append = [&all](const cdi::ContainerEdits& edits) {
    all.env.insert(all.env.end(), edits.env.begin(), edits.env.end());
    all.device_nodes.insert(all.device_nodes.end(), edits.device_nodes.begin(),
                            edits.device_nodes.end());
    all.mounts.insert(all.mounts.end(), edits.mounts.begin(),
                      edits.mounts.end());
    all.hooks.insert(all.hooks.end(), edits.hooks.begin(), edits.hooks.end());
    all.additional_gids.insert(all.additional_gids.end(),
                               edits.additional_gids.begin(),
                               edits.additional_gids.end());
  };
  std::vector<const RegistrySpec*> seen_specs;
  std::vector<std::string> unresolved;
  for (const std::string& id : device_ids) {
    auto found = registry.devices.find(id);
    if (found == registry.devices.end()) {
      unresolved.push_back(id);
      continue;
    }
    const RegistrySpec* spec = found->second.spec.get();
    if (std::find(seen_specs.begin(), seen_specs.end(), spec) ==
        seen_specs.end()) {
      seen_specs.push_back(spec);
      append(spec->edits);
    }
    append(found->second.edits);
  }
  if (!unresolved.empty()) {
    std::string message = "unresolvable CDI devices ";
    for (size_t i = 0; i < unresolved.size(); ++i) {
      if (i > 0) message += ", ";
      message += unresolved[i];
    }
    if (!registry.errors.empty()) {
      message += " (CDI cache errors:";
      for (const std::string& error : registry.errors) {
        message += " " + error + ";";
      }
      message += ")";
    }
    return NotFoundError(message);
  }
  ContainerView view = base;
  Status applied = ApplyEdits(all, device_info, view);
  if (!applied.ok()) return applied.WithContext("failed to inject devices");
  return view;
}

StatusOr<ContainerView> ApplyCdiDevices(
    const std::vector<std::string>& cdi_dirs,
    const std::vector<std::string>& device_ids, const ContainerView& base) {
  return InjectDevices(LoadCdiRegistry(cdi_dirs), device_ids, base,
                       RealDeviceInfo);
}

}  // namespace gcushare::peers::cdi_runtime
