// The stand-in kubelet against a minimal plugin served in the test: the
// registration checks, the 4 MiB receive limit, Allocate one container per
// call, and what a restart does to the directory.
#include "tests/peers/kubelet/stand_in_kubelet.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>

#include "base/mutex.h"
#include "testing/files.h"

namespace gcushare::peers::kubelet {
namespace {

using namespace std::chrono_literals;

// Sends `devices` IDs of `id_length` characters once, then holds the stream
// open; Allocate echoes the IDs in an env.
class TinyPlugin final : public v1beta1::DevicePlugin::Service {
 public:
  TinyPlugin(size_t devices, size_t id_length) {
    for (size_t i = 0; i < devices; ++i) {
      std::string id = std::to_string(i);
      id.insert(0, id_length > id.size() ? id_length - id.size() : 0, 'x');
      auto* d = list_.add_devices();
      d->set_id(id);
      d->set_health(i == 0 ? "Unhealthy" : "Healthy");
    }
  }
  grpc::Status GetDevicePluginOptions(
      grpc::ServerContext*, const v1beta1::Empty*,
      v1beta1::DevicePluginOptions* options) override {
    options->set_get_preferred_allocation_available(false);
    return grpc::Status::OK;
  }
  grpc::Status ListAndWatch(
      grpc::ServerContext* context, const v1beta1::Empty*,
      grpc::ServerWriter<v1beta1::ListAndWatchResponse>* writer) override {
    writer->Write(list_);
    while (!context->IsCancelled()) std::this_thread::sleep_for(10ms);
    return grpc::Status::OK;
  }
  grpc::Status Allocate(grpc::ServerContext*,
                        const v1beta1::AllocateRequest* request,
                        v1beta1::AllocateResponse* response) override {
    base::MutexLock lock(mu_);
    requests_.push_back(*request);
    auto* c = response->add_container_responses();
    std::string ids;
    for (const auto& id : request->container_requests(0).devices_ids()) {
      ids += id + ",";
    }
    (*c->mutable_envs())["IDS"] = ids;
    return grpc::Status::OK;
  }
  std::vector<v1beta1::AllocateRequest> requests() {
    base::MutexLock lock(mu_);
    return requests_;
  }

 private:
  v1beta1::ListAndWatchResponse list_;
  base::Mutex mu_;
  std::vector<v1beta1::AllocateRequest> requests_ GUARDED_BY(mu_);
};

class StandInKubeletTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = gcushare::testing::MakeTempDir();
    kubelet_ = std::make_unique<StandInKubelet>(dir_);
    ASSERT_TRUE(kubelet_->Start().ok());
  }
  void TearDown() override {
    kubelet_.reset();
    if (server_) server_->Shutdown(std::chrono::system_clock::now());
  }

  void Serve(size_t devices, size_t id_length) {
    plugin_ = std::make_unique<TinyPlugin>(devices, id_length);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("unix:" + dir_ + "/tiny.sock",
                             grpc::InsecureServerCredentials());
    builder.RegisterService(plugin_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
  }

  grpc::Status Register(const std::string& version,
                        const std::string& resource) {
    auto channel = grpc::CreateChannel("unix:" + kubelet_->socket_path(),
                                       grpc::InsecureChannelCredentials());
    auto stub = v1beta1::Registration::NewStub(channel);
    v1beta1::RegisterRequest request;
    request.set_version(version);
    request.set_endpoint("tiny.sock");
    request.set_resource_name(resource);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + 20s);
    v1beta1::Empty empty;
    return stub->Register(&context, request, &empty);
  }

  std::string dir_;
  std::unique_ptr<StandInKubelet> kubelet_;
  std::unique_ptr<TinyPlugin> plugin_;
  std::unique_ptr<grpc::Server> server_;
};

TEST_F(StandInKubeletTest, RejectsWrongVersionAndResourceNames) {
  Serve(3, 4);
  grpc::Status s = Register("v1alpha", "example.com/dev");
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("v1alpha"), std::string::npos);
  for (const char* bad : {"nodomain", "kubernetes.io/dev",
                          "requests.example.com/dev", "x.kubernetes.io/y"}) {
    s = Register("v1beta1", bad);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << bad;
  }
  EXPECT_TRUE(kubelet_->View().registrations.empty());
}

TEST_F(StandInKubeletTest, RegisterDialsBackAndReadsTheList) {
  Serve(3, 4);
  ASSERT_TRUE(Register("v1beta1", "example.com/dev").ok());
  ASSERT_TRUE(kubelet_->WaitUntil(
      [](const KubeletView& v) {
        auto it = v.resources.find("example.com/dev");
        return it != v.resources.end() && it->second.devices.size() == 3;
      },
      20s));
  KubeletView view = kubelet_->View();
  EXPECT_EQ(view.resources["example.com/dev"].Healthy(), 2u);
  EXPECT_TRUE(view.resources["example.com/dev"].streaming);

  // Two containers of one device each: different healthy IDs, one call each.
  auto first = kubelet_->AllocateContainer("example.com/dev", 1);
  auto second = kubelet_->AllocateContainer("example.com/dev", 1);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_NE(first->device_ids, second->device_ids);
  EXPECT_NE(first->device_ids[0], "xxx0");  // Unhealthy.
  EXPECT_EQ(plugin_->requests().size(), 2u);
  for (const auto& r : plugin_->requests()) {
    EXPECT_EQ(r.container_requests_size(), 1);
  }
  auto third = kubelet_->AllocateContainer("example.com/dev", 1);
  EXPECT_EQ(third.status().code(), StatusCode::kFailedPrecondition);

  // A restored pod (checkpoint after a restart) holds IDs without a call.
  kubelet_->Release("example.com/dev", second->device_ids);
  auto restored = kubelet_->Restore("example.com/dev", 1);
  ASSERT_TRUE(restored.ok()) << restored.status();
  EXPECT_EQ(*restored, second->device_ids);
  EXPECT_EQ(plugin_->requests().size(), 2u);
  EXPECT_EQ(kubelet_->Restore("example.com/dev", 1).status().code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(kubelet_->Restore("example.com/other", 1).status().code(),
            StatusCode::kFailedPrecondition);
}

TEST_F(StandInKubeletTest, MessagesOverFourMiBEndTheStream) {
  // 200,000 IDs of 16 characters: about 5.4 MB.
  Serve(200000, 16);
  ASSERT_TRUE(Register("v1beta1", "example.com/dev").ok());
  ASSERT_TRUE(kubelet_->WaitUntil(
      [](const KubeletView& v) {
        auto it = v.resources.find("example.com/dev");
        return it != v.resources.end() && !it->second.streaming;
      },
      20s));
  ResourceView view = kubelet_->View().resources["example.com/dev"];
  EXPECT_TRUE(view.devices.empty());
  EXPECT_NE(view.stream_end.find("RESOURCE_EXHAUSTED"), std::string::npos)
      << view.stream_end;
}

TEST_F(StandInKubeletTest, RestartDeletesSocketsButNotTheCheckpoint) {
  Serve(3, 4);
  ASSERT_TRUE(Register("v1beta1", "example.com/dev").ok());
  gcushare::testing::WriteFileOrDie(dir_ + "/kubelet_internal_checkpoint",
                                    "{}");
  ASSERT_EQ(::mkdir((dir_ + "/sub").c_str(), 0755), 0);
  ASSERT_TRUE(kubelet_->Restart().ok());
  struct stat st;
  EXPECT_NE(::stat((dir_ + "/tiny.sock").c_str(), &st), 0);
  EXPECT_EQ(::stat((dir_ + "/kubelet_internal_checkpoint").c_str(), &st), 0);
  EXPECT_EQ(::stat((dir_ + "/sub").c_str(), &st), 0);
  EXPECT_EQ(::stat(kubelet_->socket_path().c_str(), &st), 0);
  KubeletView view = kubelet_->View();
  EXPECT_EQ(view.restarts, 1u);
  EXPECT_FALSE(view.resources["example.com/dev"].streaming);
  EXPECT_EQ(kubelet_->AllocateContainer("example.com/dev", 1).status().code(),
            StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace gcushare::peers::kubelet
