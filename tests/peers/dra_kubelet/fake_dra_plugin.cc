#include "tests/peers/dra_kubelet/fake_dra_plugin.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <deque>
#include <fstream>

#include "base/mutex.h"
#include "dra-driver/api/dra_v1.grpc.pb.h"
#include "dra-driver/api/dra_v1beta1.grpc.pb.h"
#include "dra-driver/api/pluginregistration.grpc.pb.h"

namespace gcushare::peers::dra_kubelet {

namespace v1 = ::k8s::io::kubelet::pkg::apis::dra::v1;
namespace v1beta1 = ::k8s::io::kubelet::pkg::apis::dra::v1beta1;

struct FakeDraPlugin::State {
  FakePluginConfig config;  // Set before the servers start; read-only then.
  mutable base::Mutex mu;
  base::CondVar cv;
  bool released GUARDED_BY(mu) = false;
  bool end_stream GUARDED_BY(mu) = false;
  bool shutting_down GUARDED_BY(mu) = false;
  int get_info_calls GUARDED_BY(mu) = 0;
  std::deque<v1alpha1::NodeWatchResourcesResponse> health GUARDED_BY(mu);
  std::vector<std::pair<bool, std::string>> notifications GUARDED_BY(mu);
  std::vector<FakePluginCall> calls GUARDED_BY(mu);

  void WriteSpec(const std::string& uid) {
    if (config.cdi_dir.empty()) return;
    std::ofstream out(config.cdi_dir + "/k8s.gcu.enflame.com-gcu_" + uid +
                      ".json");
    out << R"({"cdiVersion":"0.5.0","kind":"k8s.gcu.enflame.com/gcu",)"
        << R"("devices":[{"name":")" << uid << R"(-gcu-0","containerEdits":{)"
        << R"("env":["ENFLAME_VISIBLE_DEVICES=0","CLAIM=)" << uid << R"("],)"
        << R"("deviceNodes":[{"path":"/dev/gcu0","type":"c","major":238,)"
        << R"("minor":0}]}}]})";
  }
  void RemoveSpec(const std::string& uid) {
    if (config.cdi_dir.empty()) return;
    std::remove(
        (config.cdi_dir + "/k8s.gcu.enflame.com-gcu_" + uid + ".json").c_str());
  }
};

namespace {

class Registration final : public pluginregistration::Registration::Service {
 public:
  Registration(std::shared_ptr<FakeDraPlugin::State> state,
               std::string endpoint)
      : state_(std::move(state)), endpoint_(std::move(endpoint)) {}
  grpc::Status GetInfo(grpc::ServerContext*,
                       const pluginregistration::InfoRequest*,
                       pluginregistration::PluginInfo* info) override {
    base::MutexLock lock(state_->mu);
    ++state_->get_info_calls;
    state_->cv.NotifyAll();
    if (state_->config.block_get_info) {
      state_->cv.Wait(lock, [this]() REQUIRES(state_->mu) {
        return state_->released || state_->shutting_down;
      });
    }
    info->set_type(state_->config.type);
    info->set_name(state_->config.name);
    info->set_endpoint(endpoint_);
    for (const std::string& v : state_->config.versions) {
      info->add_supported_versions(v);
    }
    return grpc::Status::OK;
  }
  grpc::Status NotifyRegistrationStatus(
      grpc::ServerContext*, const pluginregistration::RegistrationStatus* s,
      pluginregistration::RegistrationStatusResponse*) override {
    base::MutexLock lock(state_->mu);
    state_->notifications.emplace_back(s->plugin_registered(), s->error());
    return grpc::Status::OK;
  }

 private:
  std::shared_ptr<FakeDraPlugin::State> state_;
  std::string endpoint_;
};

template <typename Base, typename PrepReq, typename PrepResp,
          typename UnprepReq, typename UnprepResp>
class Dra final : public Base {
 public:
  Dra(std::shared_ptr<FakeDraPlugin::State> state, std::string version)
      : state_(std::move(state)), version_(std::move(version)) {}
  grpc::Status NodePrepareResources(grpc::ServerContext*,
                                    const PrepReq* request,
                                    PrepResp* response) override {
    base::MutexLock lock(state_->mu);
    FakePluginCall call{version_, "prepare", {}};
    for (const auto& claim : request->claims()) {
      call.uids.push_back(claim.uid());
      if (state_->config.omit_claims.count(claim.uid())) continue;
      auto& answer = (*response->mutable_claims())[claim.uid()];
      auto* device = answer.add_devices();
      device->set_pool_name("node-1");
      device->set_device_name("gcu-0");
      for (const std::string& request : state_->config.request_names) {
        device->add_request_names(request);
      }
      device->add_cdi_device_ids("k8s.gcu.enflame.com/gcu=" + claim.uid() +
                                 "-gcu-0");
      if constexpr (requires { device->set_share_id(""); }) {
        device->set_share_id("s-" + claim.uid());
      }
      state_->WriteSpec(claim.uid());
    }
    state_->calls.push_back(std::move(call));
    return grpc::Status::OK;
  }
  grpc::Status NodeUnprepareResources(grpc::ServerContext*,
                                      const UnprepReq* request,
                                      UnprepResp* response) override {
    base::MutexLock lock(state_->mu);
    FakePluginCall call{version_, "unprepare", {}};
    for (const auto& claim : request->claims()) {
      call.uids.push_back(claim.uid());
      (*response->mutable_claims())[claim.uid()];
      state_->RemoveSpec(claim.uid());
    }
    state_->calls.push_back(std::move(call));
    return grpc::Status::OK;
  }

 private:
  std::shared_ptr<FakeDraPlugin::State> state_;
  std::string version_;
};

using DraV1 =
    Dra<v1::DRAPlugin::Service, v1::NodePrepareResourcesRequest,
        v1::NodePrepareResourcesResponse, v1::NodeUnprepareResourcesRequest,
        v1::NodeUnprepareResourcesResponse>;
using DraV1beta1 =
    Dra<v1beta1::DRAPlugin::Service, v1beta1::NodePrepareResourcesRequest,
        v1beta1::NodePrepareResourcesResponse,
        v1beta1::NodeUnprepareResourcesRequest,
        v1beta1::NodeUnprepareResourcesResponse>;

class Health final : public v1alpha1::DRAResourceHealth::Service {
 public:
  explicit Health(std::shared_ptr<FakeDraPlugin::State> state)
      : state_(std::move(state)) {}
  grpc::Status NodeWatchResources(
      grpc::ServerContext* context, const v1alpha1::NodeWatchResourcesRequest*,
      grpc::ServerWriter<v1alpha1::NodeWatchResourcesResponse>* writer)
      override {
    base::MutexLock lock(state_->mu);
    state_->end_stream = false;
    while (!context->IsCancelled() && !state_->shutting_down &&
           !state_->end_stream) {
      while (!state_->health.empty()) {
        v1alpha1::NodeWatchResourcesResponse next = state_->health.front();
        state_->health.pop_front();
        lock.Unlock();
        writer->Write(next);
        lock.Lock();
      }
      state_->cv.WaitFor(lock, std::chrono::milliseconds(20));
    }
    return grpc::Status::OK;
  }

 private:
  std::shared_ptr<FakeDraPlugin::State> state_;
};

}  // namespace

FakeDraPlugin::FakeDraPlugin(FakePluginConfig config)
    : config_(std::move(config)), state_(std::make_shared<State>()) {
  state_->config = config_;
}

FakeDraPlugin::~FakeDraPlugin() {
  StopRegistration();
  StopService();
}

void FakeDraPlugin::Start() {
  services_.push_back(std::make_unique<DraV1>(state_, "v1"));
  services_.push_back(std::make_unique<DraV1beta1>(state_, "v1beta1"));
  services_.push_back(std::make_unique<Health>(state_));
  {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("unix:" + endpoint(),
                             grpc::InsecureServerCredentials());
    for (size_t i = 0; i < 3; ++i) builder.RegisterService(services_[i].get());
    service_server_ = builder.BuildAndStart();
  }
  services_.push_back(std::make_unique<Registration>(state_, endpoint()));
  grpc::ServerBuilder builder;
  builder.AddListeningPort("unix:" + registration_path(),
                           grpc::InsecureServerCredentials());
  builder.RegisterService(services_[3].get());
  registration_server_ = builder.BuildAndStart();
}

void FakeDraPlugin::StopRegistration() {
  if (!registration_server_) return;
  {
    base::MutexLock lock(state_->mu);
    state_->released = true;  // A blocked GetInfo must not hold Shutdown.
  }
  state_->cv.NotifyAll();
  registration_server_->Shutdown(std::chrono::system_clock::now());
  registration_server_.reset();
  ::unlink(registration_path().c_str());
}

void FakeDraPlugin::StopService() {
  if (!service_server_) return;
  {
    base::MutexLock lock(state_->mu);
    state_->shutting_down = true;
  }
  state_->cv.NotifyAll();
  service_server_->Shutdown(std::chrono::system_clock::now());
  service_server_.reset();
  ::unlink(endpoint().c_str());
}

void FakeDraPlugin::Release() {
  {
    base::MutexLock lock(state_->mu);
    state_->released = true;
  }
  state_->cv.NotifyAll();
}

void FakeDraPlugin::SendHealth(
    const std::vector<std::pair<std::string, v1alpha1::HealthStatus>>& devices,
    int64_t timeout_seconds) {
  v1alpha1::NodeWatchResourcesResponse response;
  for (const auto& [name, health] : devices) {
    auto* device = response.add_devices();
    device->mutable_device()->set_pool_name("node-1");
    device->mutable_device()->set_device_name(name);
    device->set_health(health);
    device->set_health_check_timeout_seconds(timeout_seconds);
  }
  {
    base::MutexLock lock(state_->mu);
    state_->health.push_back(std::move(response));
  }
  state_->cv.NotifyAll();
}

void FakeDraPlugin::EndHealthStream() {
  {
    base::MutexLock lock(state_->mu);
    state_->end_stream = true;
  }
  state_->cv.NotifyAll();
}

int FakeDraPlugin::get_info_calls() const {
  base::MutexLock lock(state_->mu);
  return state_->get_info_calls;
}

std::vector<std::pair<bool, std::string>> FakeDraPlugin::notifications() const {
  base::MutexLock lock(state_->mu);
  return state_->notifications;
}

std::vector<FakePluginCall> FakeDraPlugin::calls() const {
  base::MutexLock lock(state_->mu);
  return state_->calls;
}

}  // namespace gcushare::peers::dra_kubelet
