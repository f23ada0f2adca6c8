// Checks our transcription of the kubelet's DRA APIs against the wire facts
// of shared/DRA.md section 1: gRPC method paths, field numbers, and that v1
// and v1beta1 read each other's bytes (share_id present or absent).
#include <gtest/gtest.h>

#include "dra-driver/api/dra_health.grpc.pb.h"
#include "dra-driver/api/dra_v1.grpc.pb.h"
#include "dra-driver/api/dra_v1beta1.grpc.pb.h"
#include "dra-driver/api/pluginregistration.grpc.pb.h"

namespace {

namespace v1 = k8s::io::kubelet::pkg::apis::dra::v1;
namespace v1beta1 = k8s::io::kubelet::pkg::apis::dra::v1beta1;

TEST(DraApiTest, MethodPaths) {
  const auto* v1_service =
      v1::Claim::descriptor()->file()->FindServiceByName("DRAPlugin");
  ASSERT_NE(v1_service, nullptr);
  EXPECT_EQ(v1_service->full_name(),
            "k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin");
  const auto* beta_service =
      v1beta1::Claim::descriptor()->file()->FindServiceByName("DRAPlugin");
  ASSERT_NE(beta_service, nullptr);
  EXPECT_EQ(beta_service->full_name(),
            "k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin");
  for (const auto* service : {v1_service, beta_service}) {
    EXPECT_NE(service->FindMethodByName("NodePrepareResources"), nullptr);
    EXPECT_NE(service->FindMethodByName("NodeUnprepareResources"), nullptr);
  }
  const auto* registration =
      pluginregistration::PluginInfo::descriptor()->file()->FindServiceByName(
          "Registration");
  ASSERT_NE(registration, nullptr);
  EXPECT_EQ(registration->full_name(), "pluginregistration.Registration");
  EXPECT_NE(registration->FindMethodByName("GetInfo"), nullptr);
  EXPECT_NE(registration->FindMethodByName("NotifyRegistrationStatus"),
            nullptr);
  const auto* health =
      v1alpha1::DeviceHealth::descriptor()->file()->FindServiceByName(
          "DRAResourceHealth");
  ASSERT_NE(health, nullptr);
  EXPECT_EQ(health->full_name(), "v1alpha1.DRAResourceHealth");
  const auto* watch = health->FindMethodByName("NodeWatchResources");
  ASSERT_NE(watch, nullptr);
  EXPECT_TRUE(watch->server_streaming());
}

TEST(DraApiTest, FieldNumbers) {
  const auto* device = v1::Device::descriptor();
  EXPECT_EQ(device->FindFieldByName("request_names")->number(), 1);
  EXPECT_EQ(device->FindFieldByName("pool_name")->number(), 2);
  EXPECT_EQ(device->FindFieldByName("device_name")->number(), 3);
  EXPECT_EQ(device->FindFieldByName("cdi_device_ids")->number(), 4);
  EXPECT_EQ(device->FindFieldByName("share_id")->number(), 5);
  EXPECT_EQ(v1beta1::Device::descriptor()->FindFieldByName("share_id"),
            nullptr);
  const auto* claim = v1::Claim::descriptor();
  EXPECT_EQ(claim->FindFieldByName("namespace")->number(), 1);
  EXPECT_EQ(claim->FindFieldByName("uid")->number(), 2);
  EXPECT_EQ(claim->FindFieldByName("name")->number(), 3);
  const auto* info = pluginregistration::PluginInfo::descriptor();
  EXPECT_EQ(info->FindFieldByName("supported_versions")->number(), 4);
  const auto* health = v1alpha1::DeviceHealth::descriptor();
  EXPECT_EQ(health->FindFieldByName("health_check_timeout_seconds")->number(),
            4);
  EXPECT_EQ(health->FindFieldByName("message")->number(), 5);
}

v1::NodePrepareResourcesResponse V1Answer(bool with_share) {
  v1::NodePrepareResourcesResponse answer;
  v1::Device* device = (*answer.mutable_claims())["uid-1"].add_devices();
  device->add_request_names("gcu");
  device->set_pool_name("node-a");
  device->set_device_name("gcu-0");
  device->add_cdi_device_ids("k8s.gcu.enflame.com/gcu=uid-1-gcu-0");
  if (with_share) device->set_share_id("7b2f3c1e-0000-4000-8000-000000000001");
  return answer;
}

TEST(DraApiTest, V1AndV1beta1ReadEachOther) {
  for (bool with_share : {false, true}) {
    std::string bytes = V1Answer(with_share).SerializeAsString();
    v1beta1::NodePrepareResourcesResponse beta;
    ASSERT_TRUE(beta.ParseFromString(bytes));
    const auto& device = beta.claims().at("uid-1").devices(0);
    EXPECT_EQ(device.pool_name(), "node-a");
    EXPECT_EQ(device.device_name(), "gcu-0");
    ASSERT_EQ(device.cdi_device_ids_size(), 1);
    EXPECT_EQ(device.request_names(0), "gcu");

    v1::NodePrepareResourcesResponse back;
    ASSERT_TRUE(back.ParseFromString(beta.SerializeAsString()));
    // v1beta1 keeps field 5 as an unknown field, so it survives the trip.
    EXPECT_EQ(back.claims().at("uid-1").devices(0).has_share_id(), with_share);
  }
  v1beta1::NodePrepareResourcesRequest beta_request;
  auto* claim = beta_request.add_claims();
  claim->set_namespace_("demo");
  claim->set_uid("uid-1");
  claim->set_name("share");
  v1::NodePrepareResourcesRequest request;
  ASSERT_TRUE(request.ParseFromString(beta_request.SerializeAsString()));
  EXPECT_EQ(request.claims(0).namespace_(), "demo");
  EXPECT_EQ(request.claims(0).uid(), "uid-1");
  EXPECT_EQ(request.claims(0).name(), "share");
}

TEST(DraApiTest, AbsentShareIdIsNotAnEmptyOne) {
  v1::Device device;
  EXPECT_FALSE(device.has_share_id());
  device.set_share_id("");
  EXPECT_TRUE(device.has_share_id());
  v1::Device parsed;
  ASSERT_TRUE(parsed.ParseFromString(device.SerializeAsString()));
  EXPECT_TRUE(parsed.has_share_id());
}

}  // namespace
