#include "tests/peers/dra_kubelet/pod_claims.h"

#include <gtest/gtest.h>

namespace gcushare::peers::dra_kubelet {
namespace {

using nlohmann::json;

json Pod() {
  return json::parse(R"({
    "metadata": {"namespace": "demo", "name": "p", "uid": "pod-uid"},
    "spec": {
      "resourceClaims": [
        {"name": "direct", "resourceClaimName": "shared-claim"},
        {"name": "tmpl", "resourceClaimTemplateName": "one-gcu"},
        {"name": "skipped", "resourceClaimTemplateName": "t2"}],
      "initContainers": [{"name": "init", "resources": {}}],
      "containers": [
        {"name": "a", "env": [{"name": "X", "value": "1"},
                              {"name": "Y", "valueFrom": {}}],
         "resources": {"claims": [{"name": "tmpl", "request": "gcu"},
                                  {"name": "direct"},
                                  {"name": "skipped"}]}},
        {"name": "b", "resources": {
           "requests": {"enflame.com/gcu-count": "1"},
           "claims": [{"name": "tmpl", "request": "other"}]}},
        {"name": "c", "resources": {
           "limits": {"enflame.com/gcu-count": "0"}}}]},
    "status": {
      "resourceClaimStatuses": [
        {"name": "tmpl", "resourceClaimName": "p-tmpl-x1"},
        {"name": "skipped"}],
      "extendedResourceClaimStatus": {
        "resourceClaimName": "p-extended-resources-x2",
        "requestMappings": [
          {"containerName": "b", "resourceName": "enflame.com/gcu-count",
           "requestName": "container-1-request-0"},
          {"containerName": "c", "resourceName": "enflame.com/gcu-count",
           "requestName": "container-2-request-0"}]}}})");
}

json Claim(const std::string& uid, bool allocated = true,
           const std::string& reserved_uid = "pod-uid",
           const std::string& owner_uid = "pod-uid") {
  json claim = {{"metadata", {{"name", "c1"}, {"uid", uid}}},
                {"status", json::object()}};
  if (!owner_uid.empty()) {
    claim["metadata"]["ownerReferences"] = {
        {{"kind", "Pod"}, {"uid", owner_uid}, {"controller", true}}};
  }
  if (!reserved_uid.empty()) {
    claim["status"]["reservedFor"] = {
        {{"resource", "pods"}, {"name", "p"}, {"uid", reserved_uid}}};
  }
  if (allocated) {
    claim["status"]["allocation"] = {{"devices",
                                      {{"results",
                                        {{{"request", "gcu"},
                                          {"driver", "gcu.enflame.com"},
                                          {"pool", "n"},
                                          {"device", "gcu-0"}},
                                         {{"request", "gcu"},
                                          {"driver", "gcu.enflame.com"},
                                          {"pool", "n"},
                                          {"device", "gcu-1"}},
                                         {{"request", "x"},
                                          {"driver", "other.example.com"},
                                          {"pool", "n"},
                                          {"device", "x"}}}}}}};
  }
  return claim;
}

TEST(PodClaimsTest, ResolvesDirectTemplateSkippedAndExtended) {
  auto refs = ResolvePodClaims(Pod());
  ASSERT_TRUE(refs.ok()) << refs.status();
  ASSERT_EQ(refs->size(), 4u);
  EXPECT_EQ((*refs)[0].claim_name, "shared-claim");
  EXPECT_FALSE((*refs)[0].must_check_owner);
  EXPECT_EQ((*refs)[1].claim_name, "p-tmpl-x1");
  EXPECT_TRUE((*refs)[1].must_check_owner);
  EXPECT_EQ((*refs)[2].claim_name, std::nullopt);
  EXPECT_EQ((*refs)[3].pod_claim_name, "");
  EXPECT_EQ((*refs)[3].claim_name, "p-extended-resources-x2");
}

TEST(PodClaimsTest, TemplateWithoutStatusYetAndNeitherNameAreErrors) {
  json pod = Pod();
  pod["status"]["resourceClaimStatuses"] = json::array();
  EXPECT_EQ(ResolvePodClaims(pod).status().code(), StatusCode::kNotFound);
  pod = Pod();
  pod["spec"]["resourceClaims"].push_back({{"name", "broken"}});
  EXPECT_EQ(ResolvePodClaims(pod).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(PodClaimsTest, CheckClaimForPodTable) {
  struct Case {
    json claim;
    bool must_check_owner;
    std::string want_error_part;  // "" = OK.
  };
  const Case cases[] = {
      {Claim("u1"), true, ""},
      {Claim("u1", true, "pod-uid", ""), false, ""},
      {Claim("u1", true, "pod-uid", "someone-else"), true,
       "was not created for pod demo/p"},
      {Claim("u1", true, "other-pod"), false,
       "pod p (pod-uid) is not allowed to use ResourceClaim c1 (u1)"},
      {Claim("u1", true, ""), false, "is not allowed to use"},
      {Claim("u1", false), false, "ResourceClaim c1: not allocated"},
  };
  for (const Case& c : cases) {
    auto uid = CheckClaimForPod(Pod(), c.claim, c.must_check_owner);
    if (c.want_error_part.empty()) {
      ASSERT_TRUE(uid.ok()) << uid.status();
      EXPECT_EQ(*uid, "u1");
    } else {
      EXPECT_NE(uid.status().message().find(c.want_error_part),
                std::string::npos)
          << uid.status();
    }
  }
}

TEST(PodClaimsTest, AllocatedDriversSortedUnique) {
  auto drivers = AllocatedDrivers(Claim("u1"));
  ASSERT_TRUE(drivers.ok());
  EXPECT_EQ(*drivers,
            (std::vector<std::string>{"gcu.enflame.com", "other.example.com"}));
  EXPECT_FALSE(AllocatedDrivers(Claim("u1", false)).ok());
}

std::vector<std::string> Describe(const std::vector<ContainerClaimRequest>& r) {
  std::vector<std::string> out;
  out.reserve(r.size());
  for (const auto& request : r) {
    out.push_back(request.claim_name + "/" + request.request);
  }
  return out;
}

TEST(PodClaimsTest, ContainerClaimRequestsInTheContainersOrder) {
  json pod = Pod();
  const auto containers = PodContainers(pod);
  ASSERT_EQ(containers.size(), 4u);
  EXPECT_EQ((*containers[0])["name"], "init");
  auto a = ContainerClaimRequests(pod, *containers[1]);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(Describe(*a),
            (std::vector<std::string>{"p-tmpl-x1/gcu", "shared-claim/"}));
  auto b = ContainerClaimRequests(pod, *containers[2]);
  EXPECT_EQ(
      Describe(*b),
      (std::vector<std::string>{
          "p-tmpl-x1/other", "p-extended-resources-x2/container-1-request-0"}));
  // c maps a request but asks for zero of the resource: nothing.
  auto c = ContainerClaimRequests(pod, *containers[3]);
  EXPECT_TRUE(c->empty());
  EXPECT_TRUE(ContainerClaimRequests(pod, *containers[0])->empty());
  EXPECT_EQ(ContainerEnv(*containers[1]), std::vector<std::string>{"X=1"});
}

TEST(PodClaimsTest, CdiDevicesForRequest) {
  ClaimInfo info;
  info.drivers["gcu.enflame.com"] = {
      {{"gcu"}, "n", "gcu-0", {"k8s.gcu.enflame.com/gcu=u-gcu-0-s"}, "s"},
      {{"other"}, "n", "gcu-1", {"k8s.gcu.enflame.com/gcu=u-gcu-1"}, {}},
      {{}, "n", "gcu-2", {"k8s.gcu.enflame.com/gcu=u-gcu-2", "x/y=z"}, {}},
  };
  info.drivers["a.example.com"] = {{{"gcu"}, "n", "a", {"a/b=c"}, {}}};
  struct Case {
    std::string request;
    std::vector<std::string> want;
  };
  const Case cases[] = {
      {"gcu",
       {"a/b=c", "k8s.gcu.enflame.com/gcu=u-gcu-0-s",
        "k8s.gcu.enflame.com/gcu=u-gcu-2", "x/y=z"}},
      {"other",
       {"k8s.gcu.enflame.com/gcu=u-gcu-1", "k8s.gcu.enflame.com/gcu=u-gcu-2",
        "x/y=z"}},
      {"",
       {"a/b=c", "k8s.gcu.enflame.com/gcu=u-gcu-0-s",
        "k8s.gcu.enflame.com/gcu=u-gcu-1", "k8s.gcu.enflame.com/gcu=u-gcu-2",
        "x/y=z"}},
      {"none", {"k8s.gcu.enflame.com/gcu=u-gcu-2", "x/y=z"}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(CdiDevicesForRequest(info, c.request), c.want) << c.request;
  }
}

TEST(PodClaimsTest, IdentifyPod) {
  PodIdentity id = IdentifyPod(Pod());
  EXPECT_EQ(id.namespace_name, "demo");
  EXPECT_EQ(id.name, "p");
  EXPECT_EQ(id.uid, "pod-uid");
  EXPECT_EQ(IdentifyPod(json("not an object")).uid, "");
}

}  // namespace
}  // namespace gcushare::peers::dra_kubelet
