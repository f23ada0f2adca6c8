// The assembled driver in-process: sockets served in the kubelet's order and
// removed at Stop, GetInfo through the registration socket, health changes
// reaching both the kubelet's stream and the slice publisher's hook, and a
// refused registration reported once.
#include "dra-driver/driver.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>

#include "base/testing/fake_clock.h"
#include "dra-driver/api/dra_health.grpc.pb.h"
#include "dra-driver/api/pluginregistration.grpc.pb.h"
#include "efml/card_source_factory.h"
#include "testing/files.h"

namespace gcushare::dra {
namespace {

class NoClaims : public ClaimHandler {
 public:
  std::map<std::string, PrepareOutcome> Prepare(
      const std::vector<ClaimRef>&) override {
    return {};
  }
  std::map<std::string, std::string> Unprepare(
      const std::vector<ClaimRef>&) override {
    return {};
  }
};

std::string Cards(bool second_healthy) {
  return std::string(
             "cards:\n"
             "- {index: 0, uuid: GCU-A, memoryMiB: 16384}\n"
             "- {index: 1, uuid: GCU-B, memoryMiB: 16384, healthy: ") +
         (second_healthy ? "true" : "false") + "}\n";
}

class DriverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = "/tmp/gcu-drv-" + std::to_string(::getpid());
    cards_file_ = root_ + "-cards.yaml";
    testing::WriteFileOrDie(cards_file_, Cards(true));
    StatusOr<std::unique_ptr<efml::CardSource>> source = efml::MakeCardSource(
        {.backend = "fake", .fake_cards_file = cards_file_});
    ASSERT_TRUE(source.ok()) << source.status();
    source_ = std::move(*source);
    StatusOr<efml::Inventory> first = source_->Discover();
    ASSERT_TRUE(first.ok()) << first.status();
    monitor_ = std::make_unique<efml::HealthMonitor>(*source_, *first);
    DriverOptions options;
    options.driver_name = "gcu.enflame.com";
    options.node_name = "node-a";
    options.paths = MakeKubeletPaths(root_, "gcu.enflame.com");
    options.claims = &claims_;
    options.health = monitor_.get();
    options.clock = &clock_;
    options.on_inventory = [this](const efml::Inventory& inventory) {
      std::lock_guard<std::mutex> lock(mu_);
      inventories_.push_back(inventory);
    };
    options.on_refused = [this](const std::string& why) {
      std::lock_guard<std::mutex> lock(mu_);
      refusals_.push_back(why);
    };
    paths_ = options.paths;
    driver_ = std::make_unique<Driver>(std::move(options));
  }
  void TearDown() override {
    driver_.reset();
    std::filesystem::remove_all(root_);
    std::filesystem::remove(cards_file_);
  }

  std::shared_ptr<grpc::Channel> Dial(const std::string& socket) {
    return grpc::CreateChannel("unix:" + socket,
                               grpc::InsecureChannelCredentials());
  }

  std::string root_;
  std::string cards_file_;
  base::FakeClock clock_;
  NoClaims claims_;
  std::unique_ptr<efml::CardSource> source_;
  std::unique_ptr<efml::HealthMonitor> monitor_;
  KubeletPaths paths_;
  std::unique_ptr<Driver> driver_;
  std::mutex mu_;
  std::vector<efml::Inventory> inventories_;
  std::vector<std::string> refusals_;
};

TEST_F(DriverTest, ServesThenRemovesBothSockets) {
  ASSERT_TRUE(driver_->Start().ok());
  EXPECT_EQ(::access(paths_.service_socket.c_str(), F_OK), 0);
  EXPECT_EQ(::access(paths_.registration_socket.c_str(), F_OK), 0);
  auto stub = pluginregistration::Registration::NewStub(
      Dial(paths_.registration_socket));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(1));
  pluginregistration::PluginInfo info;
  ASSERT_TRUE(stub->GetInfo(&context, {}, &info).ok());
  EXPECT_EQ(info.endpoint(), paths_.service_socket);
  driver_->Stop();
  EXPECT_NE(::access(paths_.service_socket.c_str(), F_OK), 0);
  EXPECT_NE(::access(paths_.registration_socket.c_str(), F_OK), 0);
}

TEST_F(DriverTest, HealthChangesReachTheKubeletAndTheSlices) {
  ASSERT_TRUE(driver_->Start().ok());
  auto health =
      v1alpha1::DRAResourceHealth::NewStub(Dial(paths_.service_socket));
  grpc::ClientContext context;
  auto reader = health->NodeWatchResources(&context, {});
  v1alpha1::NodeWatchResourcesResponse first;
  ASSERT_TRUE(reader->Read(&first));
  ASSERT_EQ(first.devices_size(), 2);
  EXPECT_EQ(first.devices(1).health(), v1alpha1::HEALTHY);

  testing::WriteFileOrDie(cards_file_, Cards(false));
  monitor_->PollOnce();
  v1alpha1::NodeWatchResourcesResponse second;
  ASSERT_TRUE(reader->Read(&second));
  EXPECT_EQ(second.devices(1).device().device_name(), "gcu-1");
  EXPECT_EQ(second.devices(1).health(), v1alpha1::UNHEALTHY);
  {
    std::lock_guard<std::mutex> lock(mu_);
    ASSERT_EQ(inventories_.size(), 2u);
    EXPECT_TRUE(inventories_[0].cards[1].healthy);
    EXPECT_FALSE(inventories_[1].cards[1].healthy);
  }
  context.TryCancel();
}

TEST_F(DriverTest, RefusalIsReportedOnce) {
  ASSERT_TRUE(driver_->Start().ok());
  auto stub = pluginregistration::Registration::NewStub(
      Dial(paths_.registration_socket));
  for (int i = 0; i < 2; ++i) {
    grpc::ClientContext context;
    pluginregistration::RegistrationStatus status;
    status.set_plugin_registered(false);
    status.set_error("unsupported versions");
    pluginregistration::RegistrationStatusResponse response;
    ASSERT_TRUE(
        stub->NotifyRegistrationStatus(&context, status, &response).ok());
  }
  EXPECT_FALSE(driver_->registered());
  std::lock_guard<std::mutex> lock(mu_);
  ASSERT_EQ(refusals_.size(), 1u);
  EXPECT_EQ(refusals_[0], "unsupported versions");
}

}  // namespace
}  // namespace gcushare::dra
