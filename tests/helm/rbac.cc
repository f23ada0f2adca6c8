#include "tests/helm/rbac.h"

namespace gcushare::testing {

Permissions RolePermissions(const YAML::Node& role) {
  Permissions out;
  for (const YAML::Node& rule : role["rules"]) {
    for (const YAML::Node& group : rule["apiGroups"]) {
      for (const YAML::Node& resource : rule["resources"]) {
        std::string key =
            group.as<std::string>() + "/" + resource.as<std::string>();
        for (const YAML::Node& verb : rule["verbs"]) {
          out[key].insert(verb.as<std::string>());
        }
      }
    }
  }
  return out;
}

std::set<std::string> SubjectsBoundTo(const std::vector<YAML::Node>& objects,
                                      const std::string& binding_kind,
                                      const std::string& role_name) {
  std::set<std::string> out;
  for (const YAML::Node& object : objects) {
    if (object["kind"].as<std::string>("") != binding_kind) continue;
    if (object["roleRef"]["name"].as<std::string>("") != role_name) continue;
    for (const YAML::Node& s : object["subjects"]) {
      if (s["kind"].as<std::string>("") != "ServiceAccount") continue;
      out.insert(s["namespace"].as<std::string>("") + "/" +
                 s["name"].as<std::string>(""));
    }
  }
  return out;
}

}  // namespace gcushare::testing
