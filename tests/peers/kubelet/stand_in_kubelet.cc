#include "tests/peers/kubelet/stand_in_kubelet.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace gcushare::peers::kubelet {
namespace {

constexpr char kCheckpoint[] = "kubelet_internal_checkpoint";
constexpr char kApiVersion[] = "v1beta1";

// kubelet's rule for device plugin resource names: an extended resource,
// i.e. a domain-prefixed name outside kubernetes.io that does not start with
// "requests.".
bool IsExtendedResourceName(const std::string& name) {
  size_t slash = name.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == name.size()) {
    return false;
  }
  const std::string domain = name.substr(0, slash);
  if (domain == "kubernetes.io" ||
      (domain.size() > 14 &&
       domain.compare(domain.size() - 14, 14, ".kubernetes.io") == 0)) {
    return false;
  }
  return name.rfind("requests.", 0) != 0;
}

Status FromGrpc(const grpc::Status& status, const std::string& context) {
  return Status(static_cast<StatusCode>(status.error_code()),
                context + ": " + status.error_message());
}

}  // namespace

size_t ResourceView::Count(const std::string& health) const {
  return static_cast<size_t>(std::count_if(
      devices.begin(), devices.end(),
      [&](const v1beta1::Device& d) { return d.health() == health; }));
}

size_t ResourceView::Healthy() const { return Count("Healthy"); }

class StandInKubelet::RegistrationService final
    : public v1beta1::Registration::Service {
 public:
  explicit RegistrationService(StandInKubelet* owner) : owner_(owner) {}
  grpc::Status Register(grpc::ServerContext*,
                        const v1beta1::RegisterRequest* request,
                        v1beta1::Empty*) override {
    return owner_->HandleRegister(*request);
  }

 private:
  StandInKubelet* const owner_;
};

StandInKubelet::StandInKubelet(std::string dir) : dir_(std::move(dir)) {}

StandInKubelet::~StandInKubelet() { Stop(); }

Status StandInKubelet::Start() {
  if (server_ != nullptr) return OkStatus();
  ::unlink(socket_path().c_str());
  service_ = std::make_unique<RegistrationService>(this);
  grpc::ServerBuilder builder;
  builder.AddListeningPort("unix:" + socket_path(),
                           grpc::InsecureServerCredentials());
  builder.RegisterService(service_.get());
  server_ = builder.BuildAndStart();
  if (server_ == nullptr) {
    service_.reset();
    return UnavailableError("cannot serve Registration on " + socket_path());
  }
  return OkStatus();
}

void StandInKubelet::Stop() {
  if (server_ != nullptr) {
    server_->Shutdown(std::chrono::system_clock::now() +
                      std::chrono::seconds(2));
    server_->Wait();
    server_.reset();
    service_.reset();
  }
  std::vector<std::unique_ptr<Endpoint>> ending;
  {
    base::MutexLock lock(mu_);
    for (auto& [resource, endpoint] : endpoints_) {
      ending.push_back(std::move(endpoint));
      generation_[resource]++;
      ResourceView& view = view_.resources[resource];
      view.streaming = false;
      view.stream_end = "kubelet stopped";
    }
    endpoints_.clear();
  }
  changed_.NotifyAll();
  EndStreams(std::move(ending));
}

Status StandInKubelet::Restart() {
  Stop();
  DIR* dir = ::opendir(dir_.c_str());
  if (dir == nullptr) return ErrnoToStatus(errno, "opendir " + dir_);
  while (dirent* entry = ::readdir(dir)) {
    std::string name = entry->d_name;
    if (name == "." || name == ".." || name == kCheckpoint) continue;
    std::string path = dir_ + "/" + name;
    struct stat st;
    if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) continue;
    ::unlink(path.c_str());
  }
  ::closedir(dir);
  {
    base::MutexLock lock(mu_);
    view_.restarts++;
    allocated_.clear();
  }
  changed_.NotifyAll();
  return Start();
}

void StandInKubelet::EndStreams(
    std::vector<std::unique_ptr<Endpoint>> endpoints) {
  for (auto& endpoint : endpoints) {
    if (endpoint->stream_context) endpoint->stream_context->TryCancel();
  }
  for (auto& endpoint : endpoints) {
    if (endpoint->stream_thread.joinable()) endpoint->stream_thread.join();
  }
}

grpc::Status StandInKubelet::HandleRegister(
    const v1beta1::RegisterRequest& request) {
  if (request.version() != kApiVersion) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "Requested device plugin API version " +
                            request.version() + " is not supported");
  }
  if (!IsExtendedResourceName(request.resource_name())) {
    return grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        "invalid name of device plugin socket: " + request.resource_name());
  }
  auto endpoint = std::make_unique<Endpoint>();
  endpoint->resource = request.resource_name();
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(kMaxReceiveBytes);
  endpoint->channel =
      grpc::CreateCustomChannel("unix:" + dir_ + "/" + request.endpoint(),
                                grpc::InsecureChannelCredentials(), args);
  if (!endpoint->channel->WaitForConnected(std::chrono::system_clock::now() +
                                           std::chrono::seconds(10))) {
    return grpc::Status(
        grpc::StatusCode::UNKNOWN,
        "failed to dial device plugin: " + dir_ + "/" + request.endpoint());
  }
  endpoint->stub = v1beta1::DevicePlugin::NewStub(endpoint->channel);
  v1beta1::DevicePluginOptions options;
  {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(10));
    grpc::Status s = endpoint->stub->GetDevicePluginOptions(
        &context, v1beta1::Empty(), &options);
    if (!s.ok()) {
      return grpc::Status(grpc::StatusCode::UNKNOWN,
                          "GetDevicePluginOptions: " + s.error_message());
    }
  }
  std::vector<std::unique_ptr<Endpoint>> replaced;
  {
    base::MutexLock lock(mu_);
    auto old = endpoints_.find(request.resource_name());
    if (old != endpoints_.end()) replaced.push_back(std::move(old->second));
    const uint64_t generation = ++generation_[request.resource_name()];
    view_.registrations.push_back(request);
    ResourceView& view = view_.resources[request.resource_name()];
    view.resource = request.resource_name();
    view.endpoint = request.endpoint();
    view.options = options;
    view.streaming = true;
    endpoint->stream_context = std::make_unique<grpc::ClientContext>();
    Endpoint* raw = endpoint.get();
    endpoint->stream_thread =
        std::thread([this, raw, generation] { ReadStream(raw, generation); });
    endpoints_[request.resource_name()] = std::move(endpoint);
  }
  changed_.NotifyAll();
  EndStreams(std::move(replaced));
  return grpc::Status::OK;
}

void StandInKubelet::ReadStream(Endpoint* endpoint, uint64_t generation) {
  std::unique_ptr<grpc::ClientReader<v1beta1::ListAndWatchResponse>> reader =
      endpoint->stub->ListAndWatch(endpoint->stream_context.get(),
                                   v1beta1::Empty());
  v1beta1::ListAndWatchResponse response;
  while (reader->Read(&response)) {
    {
      base::MutexLock lock(mu_);
      if (generation_[endpoint->resource] != generation) continue;
      ResourceView& view = view_.resources[endpoint->resource];
      view.devices.assign(response.devices().begin(), response.devices().end());
      view.lists++;
    }
    changed_.NotifyAll();
  }
  grpc::Status status = reader->Finish();
  {
    base::MutexLock lock(mu_);
    if (generation_[endpoint->resource] == generation) {
      ResourceView& view = view_.resources[endpoint->resource];
      view.streaming = false;
      view.stream_end =
          status.ok() ? "OK" : FromGrpc(status, "ListAndWatch").ToString();
    }
  }
  changed_.NotifyAll();
}

KubeletView StandInKubelet::View() const {
  base::MutexLock lock(mu_);
  return view_;
}

bool StandInKubelet::WaitUntil(
    const std::function<bool(const KubeletView&)>& predicate,
    std::chrono::milliseconds timeout) {
  base::MutexLock lock(mu_);
  return changed_.WaitFor(lock, timeout, [this, &predicate]() REQUIRES(mu_) {
    return predicate(view_);
  });
}

StatusOr<ContainerAllocation> StandInKubelet::AllocateContainer(
    const std::string& resource, size_t count) {
  std::shared_ptr<v1beta1::DevicePlugin::Stub> stub;
  bool preferred = false;
  std::vector<std::string> available;
  {
    base::MutexLock lock(mu_);
    auto endpoint = endpoints_.find(resource);
    auto view = view_.resources.find(resource);
    if (endpoint == endpoints_.end() || view == view_.resources.end()) {
      return FailedPreconditionError("no device plugin registered for " +
                                     resource);
    }
    stub = endpoint->second->stub;
    preferred = view->second.options.get_preferred_allocation_available();
    const std::set<std::string>& taken = allocated_[resource];
    for (const v1beta1::Device& device : view->second.devices) {
      if (device.health() == "Healthy" && taken.count(device.id()) == 0) {
        available.push_back(device.id());
      }
    }
  }
  if (available.size() < count) {
    return FailedPreconditionError("insufficient " + resource + ": requested " +
                                   std::to_string(count) + ", available " +
                                   std::to_string(available.size()));
  }
  std::vector<std::string> chosen;
  if (preferred) {
    v1beta1::PreferredAllocationRequest request;
    auto* container = request.add_container_requests();
    for (const std::string& id : available) {
      container->add_available_deviceids(id);
    }
    container->set_allocation_size(static_cast<int32_t>(count));
    v1beta1::PreferredAllocationResponse response;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(30));
    grpc::Status s = stub->GetPreferredAllocation(&context, request, &response);
    if (!s.ok()) return FromGrpc(s, "GetPreferredAllocation");
    if (response.container_responses_size() > 0) {
      const auto& ids = response.container_responses(0).deviceids();
      chosen.assign(ids.begin(), ids.end());
    }
  }
  {
    // Reserve, re-checking against allocations made meanwhile.
    base::MutexLock lock(mu_);
    std::set<std::string>& taken = allocated_[resource];
    std::set<std::string> free_now;
    for (const std::string& id : available) {
      if (taken.count(id) == 0) free_now.insert(id);
    }
    std::set<std::string> unique(chosen.begin(), chosen.end());
    bool usable =
        chosen.size() == count && unique.size() == count &&
        std::all_of(chosen.begin(), chosen.end(), [&](const std::string& id) {
          return free_now.count(id) > 0;
        });
    if (!usable) {
      chosen.clear();
      for (const std::string& id : available) {
        if (chosen.size() == count) break;
        if (free_now.count(id) > 0) chosen.push_back(id);
      }
      if (chosen.size() < count) {
        return FailedPreconditionError("insufficient " + resource +
                                       " after concurrent allocations");
      }
    }
    taken.insert(chosen.begin(), chosen.end());
  }
  v1beta1::AllocateRequest request;
  auto* container = request.add_container_requests();
  for (const std::string& id : chosen) container->add_devices_ids(id);
  v1beta1::AllocateResponse response;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(60));
  grpc::Status s = stub->Allocate(&context, request, &response);
  if (!s.ok() || response.container_responses_size() != 1) {
    Release(resource, chosen);
    if (!s.ok()) return FromGrpc(s, "Allocate");
    return InternalError("Allocate answered " +
                         std::to_string(response.container_responses_size()) +
                         " container responses for 1 request");
  }
  return ContainerAllocation{chosen, response.container_responses(0)};
}

StatusOr<std::vector<std::string>> StandInKubelet::Restore(
    const std::string& resource, size_t count) {
  base::MutexLock lock(mu_);
  auto view = view_.resources.find(resource);
  if (view == view_.resources.end()) {
    return FailedPreconditionError("no devices known for " + resource);
  }
  std::set<std::string>& taken = allocated_[resource];
  std::vector<std::string> chosen;
  for (const v1beta1::Device& device : view->second.devices) {
    if (chosen.size() == count) break;
    if (device.health() == "Healthy" && taken.count(device.id()) == 0) {
      chosen.push_back(device.id());
    }
  }
  if (chosen.size() < count) {
    return FailedPreconditionError(
        "insufficient " + resource + " to restore: requested " +
        std::to_string(count) + ", available " + std::to_string(chosen.size()));
  }
  taken.insert(chosen.begin(), chosen.end());
  return chosen;
}

void StandInKubelet::Release(const std::string& resource,
                             const std::vector<std::string>& ids) {
  base::MutexLock lock(mu_);
  for (const std::string& id : ids) allocated_[resource].erase(id);
}

}  // namespace gcushare::peers::kubelet
