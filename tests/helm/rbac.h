// Test support: what a rendered Role or ClusterRole allows, as
// "<apiGroup>/<resource>" -> verbs, for exact least-privilege assertions.
#ifndef GCUSHARE_TESTS_HELM_RBAC_H_
#define GCUSHARE_TESTS_HELM_RBAC_H_

#include <yaml-cpp/yaml.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "kube/api_permissions.h"

namespace gcushare::testing {

// "/pods" for the core group, "apps/daemonsets" otherwise. Verbs of rules
// naming the same resource are merged; resourceNames are ignored here.
using Permissions = kube::ApiPermissions;

Permissions RolePermissions(const YAML::Node& role);

// The ServiceAccount names ("ns/name") a (Cluster)RoleBinding binding to
// role `role_name` grants to, across all `objects`.
std::set<std::string> SubjectsBoundTo(const std::vector<YAML::Node>& objects,
                                      const std::string& binding_kind,
                                      const std::string& role_name);

}  // namespace gcushare::testing

#endif  // GCUSHARE_TESTS_HELM_RBAC_H_
