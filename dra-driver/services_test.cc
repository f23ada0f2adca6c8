// The driver's gRPC services over a real unix socket, called with the
// kubelet's stubs: registration info and verdicts, DRAPlugin v1 and v1beta1
// over a fake ClaimHandler (an entry for every claim, share_id only in v1),
// and the health stream.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <mutex>

#include "dra-driver/api/dra_health.grpc.pb.h"
#include "dra-driver/api/dra_v1.grpc.pb.h"
#include "dra-driver/api/dra_v1beta1.grpc.pb.h"
#include "dra-driver/api/pluginregistration.grpc.pb.h"
#include "dra-driver/dra_service.h"
#include "dra-driver/health_service.h"
#include "dra-driver/registration_service.h"
#include "dra-driver/unix_grpc_server.h"

namespace gcushare::dra {
namespace {

namespace v1 = k8s::io::kubelet::pkg::apis::dra::v1;
namespace v1beta1 = k8s::io::kubelet::pkg::apis::dra::v1beta1;

// Prepares every claim whose name is not "bad" with one shared device.
class FakeHandler : public ClaimHandler {
 public:
  std::map<std::string, PrepareOutcome> Prepare(
      const std::vector<ClaimRef>& claims) override {
    std::lock_guard<std::mutex> lock(mu_);
    std::map<std::string, PrepareOutcome> out;
    for (const ClaimRef& c : claims) {
      prepared_.push_back(c);
      if (c.name == "bad") {
        out[c.uid].error = "claim " + c.name + " is bad";
        continue;
      }
      out[c.uid].devices.push_back({{"gcu"},
                                    "node-a",
                                    "gcu-1",
                                    {"k8s.gcu.enflame.com/gcu=" + c.uid},
                                    "share-" + c.uid});
    }
    return out;
  }
  std::map<std::string, std::string> Unprepare(
      const std::vector<ClaimRef>& claims) override {
    std::lock_guard<std::mutex> lock(mu_);
    std::map<std::string, std::string> out;
    for (const ClaimRef& c : claims) {
      unprepared_.push_back(c);
      out[c.uid] = "";
    }
    return out;
  }
  std::vector<ClaimRef> prepared() {
    std::lock_guard<std::mutex> lock(mu_);
    return prepared_;
  }

 private:
  std::mutex mu_;
  std::vector<ClaimRef> prepared_;
  std::vector<ClaimRef> unprepared_;
};

class ServicesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    socket_ = "/tmp/gcu-dra-svc-" + std::to_string(::getpid()) + ".sock";
    registration_ = std::make_unique<RegistrationService>(
        "gcu.enflame.com", "/var/lib/kubelet/plugins/gcu.enflame.com/dra.sock",
        [this](const RegistrationVerdict& v) {
          std::lock_guard<std::mutex> lock(mu_);
          verdicts_.push_back(v);
        });
    server_ = std::make_unique<UnixGrpcServer>(
        socket_, std::vector<grpc::Service*>{&v1_, &v1beta1_,
                                             registration_.get(), &health_});
    ASSERT_TRUE(server_->Start().ok());
    channel_ = grpc::CreateChannel("unix:" + socket_,
                                   grpc::InsecureChannelCredentials());
  }
  void TearDown() override {
    reports_.Close();
    server_->Stop();
    EXPECT_NE(::access(socket_.c_str(), F_OK), 0) << "socket left behind";
  }

  std::string socket_;
  FakeHandler handler_;
  DraServiceV1 v1_{&handler_};
  DraServiceV1beta1 v1beta1_{&handler_};
  HealthReports reports_;
  HealthService health_{&reports_};
  std::unique_ptr<RegistrationService> registration_;
  std::unique_ptr<UnixGrpcServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::mutex mu_;
  std::vector<RegistrationVerdict> verdicts_;
};

TEST_F(ServicesTest, GetInfoListsV1FirstAndHealth) {
  auto stub = pluginregistration::Registration::NewStub(channel_);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(1));
  pluginregistration::PluginInfo info;
  ASSERT_TRUE(stub->GetInfo(&context, {}, &info).ok());
  EXPECT_EQ(info.type(), "DRAPlugin");
  EXPECT_EQ(info.name(), "gcu.enflame.com");
  EXPECT_EQ(info.endpoint(),
            "/var/lib/kubelet/plugins/gcu.enflame.com/dra.sock");
  ASSERT_EQ(info.supported_versions_size(), 3);
  EXPECT_EQ(info.supported_versions(0), "v1.DRAPlugin");
  EXPECT_EQ(info.supported_versions(1), "v1beta1.DRAPlugin");
  EXPECT_EQ(info.supported_versions(2), "v1alpha1.DRAResourceHealth");
}

TEST_F(ServicesTest, RegistrationVerdictsReachTheDriver) {
  auto stub = pluginregistration::Registration::NewStub(channel_);
  for (bool ok : {true, false}) {
    grpc::ClientContext context;
    pluginregistration::RegistrationStatus status;
    status.set_plugin_registered(ok);
    if (!ok) status.set_error("no supported version");
    pluginregistration::RegistrationStatusResponse response;
    ASSERT_TRUE(
        stub->NotifyRegistrationStatus(&context, status, &response).ok());
  }
  std::lock_guard<std::mutex> lock(mu_);
  ASSERT_EQ(verdicts_.size(), 2u);
  EXPECT_TRUE(verdicts_[0].registered);
  EXPECT_FALSE(verdicts_[1].registered);
  EXPECT_EQ(verdicts_[1].error, "no supported version");
}

TEST_F(ServicesTest, V1PrepareAnswersEveryClaimWithShareId) {
  auto stub = v1::DRAPlugin::NewStub(channel_);
  v1::NodePrepareResourcesRequest request;
  for (auto [ns, uid, name] :
       std::vector<std::array<const char*, 3>>{{"demo", "u1", "share"},
                                               {"demo", "u2", "bad"},
                                               {"", "u3", "no-namespace"}}) {
    auto* c = request.add_claims();
    c->set_namespace_(ns);
    c->set_uid(uid);
    c->set_name(name);
  }
  grpc::ClientContext context;
  v1::NodePrepareResourcesResponse response;
  ASSERT_TRUE(stub->NodePrepareResources(&context, request, &response).ok());
  ASSERT_EQ(response.claims_size(), 3);
  const auto& good = response.claims().at("u1");
  EXPECT_TRUE(good.error().empty());
  ASSERT_EQ(good.devices_size(), 1);
  EXPECT_EQ(good.devices(0).pool_name(), "node-a");
  EXPECT_EQ(good.devices(0).device_name(), "gcu-1");
  EXPECT_EQ(good.devices(0).request_names(0), "gcu");
  EXPECT_EQ(good.devices(0).cdi_device_ids(0), "k8s.gcu.enflame.com/gcu=u1");
  EXPECT_EQ(good.devices(0).share_id(), "share-u1");
  EXPECT_EQ(response.claims().at("u2").error(), "claim bad is bad");
  EXPECT_NE(response.claims().at("u3").error().find("required"),
            std::string::npos);
  // The invalid claim never reached the handler.
  EXPECT_EQ(handler_.prepared().size(), 2u);
}

TEST_F(ServicesTest, V1beta1PrepareAndUnprepare) {
  auto stub = v1beta1::DRAPlugin::NewStub(channel_);
  v1beta1::NodePrepareResourcesRequest request;
  auto* c = request.add_claims();
  c->set_namespace_("demo");
  c->set_uid("u9");
  c->set_name("share");
  grpc::ClientContext context;
  v1beta1::NodePrepareResourcesResponse response;
  ASSERT_TRUE(stub->NodePrepareResources(&context, request, &response).ok());
  const auto& entry = response.claims().at("u9");
  ASSERT_EQ(entry.devices_size(), 1);
  // v1beta1 has no share_id: a v1 reader of these bytes sees none.
  v1::NodePrepareResourceResponse as_v1;
  ASSERT_TRUE(as_v1.ParseFromString(entry.SerializeAsString()));
  EXPECT_FALSE(as_v1.devices(0).has_share_id());

  v1beta1::NodeUnprepareResourcesRequest unprepare;
  *unprepare.add_claims() = *c;
  grpc::ClientContext context2;
  v1beta1::NodeUnprepareResourcesResponse unprepared;
  ASSERT_TRUE(
      stub->NodeUnprepareResources(&context2, unprepare, &unprepared).ok());
  ASSERT_EQ(unprepared.claims_size(), 1);
  EXPECT_EQ(unprepared.claims().at("u9").error(), "");
}

TEST_F(ServicesTest, HealthStreamsTheCurrentReportThenChanges) {
  efml::Inventory inventory;
  inventory.cards.push_back({.index = 0, .uuid = "GCU-0", .memory_mib = 16384});
  inventory.cards.push_back({.index = 1, .uuid = "GCU-1", .memory_mib = 16384});
  reports_.Publish(std::make_shared<const v1alpha1::NodeWatchResourcesResponse>(
      BuildHealthReport(inventory, "node-a", 100)));
  auto stub = v1alpha1::DRAResourceHealth::NewStub(channel_);
  grpc::ClientContext context;
  auto reader = stub->NodeWatchResources(&context, {});
  v1alpha1::NodeWatchResourcesResponse first;
  ASSERT_TRUE(reader->Read(&first));
  ASSERT_EQ(first.devices_size(), 2);
  EXPECT_EQ(first.devices(1).device().pool_name(), "node-a");
  EXPECT_EQ(first.devices(1).device().device_name(), "gcu-1");
  EXPECT_EQ(first.devices(1).health(), v1alpha1::HEALTHY);
  EXPECT_EQ(first.devices(1).last_updated_time(), 100);
  EXPECT_EQ(first.devices(1).health_check_timeout_seconds(),
            kHealthTimeoutSeconds);

  inventory.cards[1].healthy = false;
  reports_.Publish(std::make_shared<const v1alpha1::NodeWatchResourcesResponse>(
      BuildHealthReport(inventory, "node-a", 130)));
  v1alpha1::NodeWatchResourcesResponse second;
  ASSERT_TRUE(reader->Read(&second));
  ASSERT_EQ(second.devices_size(), 2);  // Always the whole list.
  EXPECT_EQ(second.devices(0).health(), v1alpha1::HEALTHY);
  EXPECT_EQ(second.devices(1).health(), v1alpha1::UNHEALTHY);
  EXPECT_EQ(second.devices(1).last_updated_time(), 130);
  context.TryCancel();
}

}  // namespace
}  // namespace gcushare::dra
