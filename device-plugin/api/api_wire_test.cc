// Checks our transcription of the device plugin API against the wire facts
// of docs/protocols.md section 1: the gRPC method paths and the encoded size of
// a Device entry, which decides how many device IDs fit in kubelet's 4 MiB.
#include <gtest/gtest.h>

#include "device-plugin/api/api.grpc.pb.h"
#include "device-plugin/api/api.pb.h"

namespace {

size_t EntrySize(const std::string& id, const std::string& health,
                 int numa /* -1: no topology */) {
  v1beta1::ListAndWatchResponse one;
  v1beta1::Device* d = one.add_devices();
  d->set_id(id);
  d->set_health(health);
  if (numa >= 0) d->mutable_topology()->add_nodes()->set_id(numa);
  return one.ByteSizeLong();
}

TEST(DevicePluginApiTest, EntrySizesMatchTheFactSheet) {
  EXPECT_EQ(EntrySize(std::string(8, 'a'), "Healthy", -1), 21u);
  EXPECT_EQ(EntrySize(std::string(36, 'a'), "Healthy", -1), 49u);
  EXPECT_EQ(EntrySize(std::string(40, 'a'), "Healthy", 0), 57u);
  EXPECT_EQ(EntrySize(std::string(40, 'a'), "Healthy", 1), 59u);
  EXPECT_EQ(EntrySize(std::string(63, 'a'), "Healthy", 1), 82u);
  EXPECT_EQ(EntrySize(std::string(63, 'a'), "Unhealthy", 1), 84u);
}

TEST(DevicePluginApiTest, MethodPaths) {
  const auto* file = v1beta1::Device::descriptor()->file();
  const auto* registration = file->FindServiceByName("Registration");
  ASSERT_NE(registration, nullptr);
  EXPECT_EQ(registration->full_name(), "v1beta1.Registration");
  EXPECT_NE(registration->FindMethodByName("Register"), nullptr);
  const auto* plugin = file->FindServiceByName("DevicePlugin");
  ASSERT_NE(plugin, nullptr);
  EXPECT_EQ(plugin->full_name(), "v1beta1.DevicePlugin");
  for (const char* method :
       {"GetDevicePluginOptions", "ListAndWatch", "GetPreferredAllocation",
        "Allocate", "PreStartContainer"}) {
    EXPECT_NE(plugin->FindMethodByName(method), nullptr) << method;
  }
  EXPECT_TRUE(plugin->FindMethodByName("ListAndWatch")->server_streaming());
}

TEST(DevicePluginApiTest, CdiDevicesIsField5) {
  const auto* field =
      v1beta1::ContainerAllocateResponse::descriptor()->FindFieldByName(
          "cdi_devices");
  ASSERT_NE(field, nullptr);
  EXPECT_EQ(field->number(), 5);
}

}  // namespace
