#include "cdi/spec_file.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <string_view>

#include "cdi/names.h"
#include "cdi/parser.h"
#include "cdi/validator.h"

namespace gcushare::cdi {
namespace {

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

std::vector<std::string> LoadedSpec::QualifiedNames() const {
  std::vector<std::string> names;
  names.reserve(device_names.size());
  for (const std::string& name : device_names) {
    names.push_back(QualifiedName(kind, name));
  }
  return names;
}

StatusOr<LoadedSpec> LoadSpecFile(const std::string& path) {
  GCUSHARE_ASSIGN_OR_RETURN(nlohmann::json tree, ReadSpecFile(path));
  GCUSHARE_RETURN_IF_ERROR(ValidateSpec(tree).WithContext(path));
  // Valid: the members below exist and have these types.
  LoadedSpec spec;
  spec.path = path;
  spec.cdi_version = tree["cdiVersion"].get<std::string>();
  spec.kind = tree["kind"].get<std::string>();
  for (const nlohmann::json& device : tree["devices"]) {
    spec.device_names.push_back(device["name"].get<std::string>());
  }
  spec.tree = std::move(tree);
  return spec;
}

StatusOr<std::vector<std::string>> FindSpecFiles(const std::string& dir) {
  std::vector<std::string> files;
  DIR* handle = ::opendir(dir.c_str());
  if (handle == nullptr) {
    if (errno == ENOENT) return files;
    return ErrnoToStatus(errno, "cannot read spec directory " + dir);
  }
  std::string prefix = dir;
  if (prefix.empty() || prefix.back() != '/') prefix += '/';
  while (struct dirent* entry = ::readdir(handle)) {
    std::string_view name = entry->d_name;
    if (!EndsWith(name, ".json") && !EndsWith(name, ".yaml")) continue;
    std::string path = prefix + std::string(name);
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    files.push_back(std::move(path));
  }
  ::closedir(handle);
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace gcushare::cdi
