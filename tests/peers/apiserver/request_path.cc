#include "tests/peers/apiserver/request_path.h"

#include <vector>

namespace gcushare::apiserver {
namespace {

std::vector<std::string> Split(std::string_view path) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    parts.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

}  // namespace

std::optional<ApiPath> ParseApiPath(std::string_view path,
                                    const ResourceCatalog& catalog) {
  std::string group;
  std::string version = "v1";
  std::vector<std::string> parts;
  if (path.rfind("/api/v1/", 0) == 0) {
    parts = Split(path.substr(8));
  } else if (path.rfind("/apis/", 0) == 0) {
    parts = Split(path.substr(6));
    if (parts.size() < 3) return std::nullopt;
    group = parts[0];
    version = parts[1];
    if (!catalog.ServesGroupVersion(group, version)) return std::nullopt;
    parts.erase(parts.begin(), parts.begin() + 2);
  } else {
    return std::nullopt;
  }
  for (const std::string& p : parts) {
    if (p.empty()) return std::nullopt;  // "//" or a trailing slash.
  }
  const bool core = group.empty();
  ApiPath out;
  size_t i = 0;
  if (parts[i] == "watch") {
    out.legacy_watch = true;
    ++i;
  }
  if (i < parts.size() && parts[i] == "namespaces") {
    if (i + 2 >= parts.size()) return std::nullopt;  // Namespaces themselves.
    out.ns = parts[i + 1];
    i += 2;
    if (core && parts[i] == "bindings" && i + 1 == parts.size() &&
        !out.legacy_watch) {
      out.kind = catalog.Find("pods");
      out.subresource = "binding";
      out.bindings_collection = true;
      return out;
    }
    out.kind = catalog.Find(group, version, parts[i]);
    if (out.kind == nullptr || !out.kind->namespaced) return std::nullopt;
  } else {
    if (i >= parts.size()) return std::nullopt;
    out.kind = catalog.Find(group, version, parts[i]);
    if (out.kind == nullptr) return std::nullopt;
    // Namespaced kinds only have their all-namespace collection here.
    if (out.kind->namespaced && i + 1 < parts.size()) return std::nullopt;
  }
  ++i;
  if (i < parts.size()) out.name = parts[i++];
  if (i < parts.size()) {
    out.subresource = parts[i++];
    bool known = (out.subresource == "status" && out.kind->has_status) ||
                 (out.subresource == "binding" && out.kind->has_binding);
    if (!known || out.legacy_watch) return std::nullopt;
  }
  if (i != parts.size()) return std::nullopt;
  return out;
}

}  // namespace gcushare::apiserver
