#include "tests/peers/apiserver/request_path.h"

#include <gtest/gtest.h>

#include "tests/peers/apiserver/continue_token.h"
#include "tests/peers/apiserver/named_group_kinds.h"

namespace gcushare::apiserver {
namespace {

struct Case {
  const char* path;
  const char* resource;  // nullptr: not an API path.
  const char* ns;
  const char* name;
  const char* subresource;
};

class RequestPathTest : public ::testing::TestWithParam<Case> {};

TEST_P(RequestPathTest, Parses) {
  const Case& c = GetParam();
  ResourceCatalog catalog;
  std::optional<ApiPath> p = ParseApiPath(c.path, catalog);
  if (c.resource == nullptr) {
    EXPECT_FALSE(p.has_value()) << c.path;
    return;
  }
  ASSERT_TRUE(p.has_value()) << c.path;
  EXPECT_EQ(p->kind->resource, c.resource) << c.path;
  EXPECT_EQ(p->ns, c.ns) << c.path;
  EXPECT_EQ(p->name, c.name) << c.path;
  EXPECT_EQ(p->subresource, c.subresource) << c.path;
}

INSTANTIATE_TEST_SUITE_P(
    Table, RequestPathTest,
    ::testing::Values(
        Case{"/api/v1/pods", "pods", "", "", ""},
        Case{"/api/v1/namespaces/ns/pods", "pods", "ns", "", ""},
        Case{"/api/v1/namespaces/ns/pods/p", "pods", "ns", "p", ""},
        Case{"/api/v1/namespaces/ns/pods/p/status", "pods", "ns", "p",
             "status"},
        Case{"/api/v1/namespaces/ns/pods/p/binding", "pods", "ns", "p",
             "binding"},
        Case{"/api/v1/namespaces/ns/bindings", "pods", "ns", "", "binding"},
        Case{"/api/v1/nodes", "nodes", "", "", ""},
        Case{"/api/v1/nodes/n/status", "nodes", "", "n", "status"},
        Case{"/api/v1/events", "events", "", "", ""},
        Case{"/api/v1/namespaces/ns/events/e", "events", "ns", "e", ""},
        Case{"/api/v1/watch/namespaces/ns/pods/p", "pods", "ns", "p", ""},
        Case{"/api/v1/pods/p", nullptr, "", "", ""},  // Needs a namespace.
        Case{"/api/v1/namespaces/ns/nodes", nullptr, "", "", ""},
        Case{"/api/v1/nodes/n/binding", nullptr, "", "", ""},
        Case{"/api/v1/namespaces/ns/pods/p/exec", nullptr, "", "", ""},
        Case{"/api/v1/namespaces/ns", nullptr, "", "", ""},
        Case{"/api/v1/pods/", nullptr, "", "", ""},
        Case{"/apis/apps/v1/deployments", nullptr, "", "", ""},
        Case{"/api/v1/configmaps", nullptr, "", "", ""}));

struct GroupCase {
  const char* path;
  const char* resource;  // nullptr: not an API path.
  const char* group;
  const char* ns;
  const char* name;
  const char* subresource;
  bool legacy_watch;
};

class NamedGroupPathTest : public ::testing::TestWithParam<GroupCase> {};

TEST_P(NamedGroupPathTest, Parses) {
  const GroupCase& c = GetParam();
  ResourceCatalog catalog(NamedGroupKinds(FeatureGates()));
  std::optional<ApiPath> p = ParseApiPath(c.path, catalog);
  if (c.resource == nullptr) {
    EXPECT_FALSE(p.has_value()) << c.path;
    return;
  }
  ASSERT_TRUE(p.has_value()) << c.path;
  EXPECT_EQ(p->kind->resource, c.resource) << c.path;
  EXPECT_EQ(p->kind->group, c.group) << c.path;
  EXPECT_EQ(p->ns, c.ns) << c.path;
  EXPECT_EQ(p->name, c.name) << c.path;
  EXPECT_EQ(p->subresource, c.subresource) << c.path;
  EXPECT_EQ(p->legacy_watch, c.legacy_watch) << c.path;
}

constexpr char kResource[] = "resource.k8s.io";
constexpr char kCoordination[] = "coordination.k8s.io";

INSTANTIATE_TEST_SUITE_P(
    Table, NamedGroupPathTest,
    ::testing::Values(
        GroupCase{"/apis/resource.k8s.io/v1/resourceslices", "resourceslices",
                  kResource, "", "", "", false},
        GroupCase{"/apis/resource.k8s.io/v1/resourceslices/s", "resourceslices",
                  kResource, "", "s", "", false},
        GroupCase{"/apis/resource.k8s.io/v1/watch/resourceslices",
                  "resourceslices", kResource, "", "", "", true},
        GroupCase{"/apis/resource.k8s.io/v1/resourceclaims", "resourceclaims",
                  kResource, "", "", "", false},
        GroupCase{"/apis/resource.k8s.io/v1/namespaces/d/resourceclaims/c/"
                  "status",
                  "resourceclaims", kResource, "d", "c", "status", false},
        GroupCase{"/apis/resource.k8s.io/v1/namespaces/d/"
                  "resourceclaimtemplates/t",
                  "resourceclaimtemplates", kResource, "d", "t", "", false},
        GroupCase{"/apis/resource.k8s.io/v1/deviceclasses/gcu.enflame.com",
                  "deviceclasses", kResource, "", "gcu.enflame.com", "", false},
        GroupCase{"/apis/coordination.k8s.io/v1/namespaces/ha/leases/l",
                  "leases", kCoordination, "ha", "l", "", false},
        GroupCase{"/apis/resource.k8s.io/v1/resourceslices/s/status", nullptr,
                  "", "", "", "", false},
        GroupCase{"/apis/resource.k8s.io/v1/namespaces/d/bindings", nullptr, "",
                  "", "", "", false},
        GroupCase{"/apis/resource.k8s.io/v1beta2/resourceslices", nullptr, "",
                  "", "", "", false},
        GroupCase{"/apis/resource.k8s.io/v1", nullptr, "", "", "", "", false},
        GroupCase{"/apis/resource.k8s.io/v1/pods", nullptr, "", "", "", "",
                  false},
        GroupCase{"/apis/resource.k8s.io/v1/namespaces/d/deviceclasses",
                  nullptr, "", "", "", "", false},
        GroupCase{"/apis/coordination.k8s.io/v1/leases/l", nullptr, "", "", "",
                  "", false},
        GroupCase{"/api/v1/resourceslices", nullptr, "", "", "", "", false}));

TEST(ContinueTokenTest, RoundTripsAndRejectsGarbage) {
  std::string token = EncodeContinueToken({42, std::string("ns/p1") + '\0'});
  EXPECT_EQ(token.find('='), std::string::npos);  // No padding.
  auto decoded = DecodeContinueToken(token);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->rv, 42);
  EXPECT_EQ(decoded->start, std::string("ns/p1") + '\0');
  EXPECT_FALSE(DecodeContinueToken("!!").ok());
  EXPECT_FALSE(DecodeContinueToken("e30").ok());  // "{}"
}

}  // namespace
}  // namespace gcushare::apiserver
