#include "cdi/cli/list.h"

#include <set>

#include "cdi/spec_file.h"

namespace gcushare::cdi {

ListReport ListDevices(const std::vector<std::string>& files,
                       const std::vector<std::string>& dirs) {
  ListReport report;
  std::vector<std::string> paths = files;
  for (const std::string& dir : dirs) {
    StatusOr<std::vector<std::string>> found = FindSpecFiles(dir);
    if (!found.ok()) {
      report.errors.push_back(found.status());
      continue;
    }
    paths.insert(paths.end(), found->begin(), found->end());
  }
  std::set<std::string> names;
  for (const std::string& path : paths) {
    StatusOr<LoadedSpec> spec = LoadSpecFile(path);
    if (!spec.ok()) {
      report.errors.push_back(spec.status());
      continue;
    }
    for (std::string& name : spec->QualifiedNames()) {
      names.insert(std::move(name));
    }
  }
  report.names.assign(names.begin(), names.end());
  return report;
}

}  // namespace gcushare::cdi
