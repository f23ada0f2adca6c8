#include "tests/peers/nri_runtime/plugin_link.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "base/guarded_thread.h"

namespace gcushare::nri_runtime {
namespace {

// containerd's send timeout for a plugin that stopped reading.
constexpr std::chrono::milliseconds kSendTimeout{10000};

Status FromRpc(const TtrpcResponse& response) {
  if (response.code == 0) return OkStatus();
  StatusCode code = response.code > 0 && response.code <= 16
                        ? static_cast<StatusCode>(response.code)
                        : StatusCode::kUnknown;
  return Status(code, response.message);
}

}  // namespace

PluginLink::PluginLink(Fd fd, std::string runtime_service,
                       std::map<std::string, RuntimeMethod> methods,
                       std::function<void(const Status&)> on_closed)
    : fd_(std::move(fd)),
      runtime_service_(std::move(runtime_service)),
      methods_(std::move(methods)),
      on_closed_(std::move(on_closed)) {
  reader_ = base::StartGuardedThread(
      "nri-rt-reader", [this] { ReadLoop(); },
      [this](std::string_view, std::string_view what) {
        Finish(InternalError("reader died: " + std::string(what)));
      });
}

PluginLink::~PluginLink() {
  Close();
  if (reader_.joinable()) reader_.join();
}

void PluginLink::Close() {
  closing_.store(true);
  base::MutexLock write(write_mu_);
  if (!closed_.load()) ::shutdown(fd_.get(), SHUT_RDWR);
}

bool PluginLink::WaitClosed(std::chrono::milliseconds timeout) {
  base::MutexLock lock(mu_);
  return cv_.WaitFor(lock, timeout,
                     [this]() REQUIRES(mu_) { return ended_.has_value(); });
}

Status PluginLink::Send(std::string_view frames) {
  base::MutexLock lock(write_mu_);
  if (closed_.load()) return UnavailableError("plugin connection closed");
  Status sent = SendAll(fd_.get(), frames, kSendTimeout);
  if (!sent.ok()) {  // The runtime drops a plugin it cannot write to.
    closing_.store(true);
    ::shutdown(fd_.get(), SHUT_RDWR);
  }
  return sent;
}

Status PluginLink::WriteRaw(uint32_t conn_id, std::string_view bytes) {
  return Send(EncodeMuxChunk(conn_id, bytes));
}

StatusOr<std::string> PluginLink::Call(std::string_view service,
                                       std::string_view method,
                                       std::string payload,
                                       std::chrono::milliseconds timeout,
                                       const TtrpcMetadata& metadata) {
  auto pending = std::make_shared<Pending>();
  uint32_t stream = 0;
  {
    base::MutexLock lock(mu_);
    if (ended_.has_value()) {
      return UnavailableError("plugin connection closed: " +
                              ended_->ToString());
    }
    stream = next_stream_;
    next_stream_ += 2;
    calls_[stream] = pending;
  }
  TtrpcRequest request;
  request.service = std::string(service);
  request.method = std::string(method);
  request.payload = std::move(payload);
  request.timeout_nano =
      std::chrono::duration_cast<std::chrono::nanoseconds>(timeout).count();
  request.metadata = metadata;
  std::string body = EncodeTtrpcRequest(request);
  if (body.size() > kMaxTtrpcLength) {
    base::MutexLock lock(mu_);
    calls_.erase(stream);
    return ResourceExhaustedError("request of " + std::to_string(body.size()) +
                                  " bytes is over ttrpc's 4 MiB");
  }
  Status sent = Send(EncodeMuxMessage(
      kPluginConnId,
      EncodeTtrpcFrame({stream, kTtrpcRequest, 0, std::move(body)})));
  base::MutexLock lock(mu_);
  if (!sent.ok()) {
    calls_.erase(stream);
    return sent;
  }
  bool answered = cv_.WaitFor(lock, timeout, [this, &pending]() REQUIRES(mu_) {
    return pending->done || ended_.has_value();
  });
  calls_.erase(stream);
  if (pending->done) {
    Status status = FromRpc(pending->response);
    if (!status.ok()) return status;
    return std::move(pending->response.payload);
  }
  if (!answered) {
    return DeadlineExceededError(std::string(method) +
                                 ": no answer from the plugin in time");
  }
  return UnavailableError("plugin connection closed: " + ended_->ToString());
}

void PluginLink::ReadLoop() {
  char buffer[64 * 1024];
  Status why;
  while (true) {
    ssize_t n = ::read(fd_.get(), buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 || closing_.load()) {
      why =
          UnavailableError(closing_.load() ? "connection closed by the runtime"
                                           : "plugin closed the connection");
      break;
    }
    if (n < 0) {
      why = UnavailableError(std::string("read: ") + std::strerror(errno));
      break;
    }
    mux_.Append(std::string_view(buffer, static_cast<size_t>(n)));
    while (why.ok()) {
      StatusOr<std::optional<MuxChunk>> chunk = mux_.Next();
      if (!chunk.ok()) {
        why = chunk.status();
      } else if (!chunk->has_value()) {
        break;
      } else {
        why = OnChunk(**chunk);
      }
    }
    if (!why.ok()) break;
  }
  Finish(why);
}

Status PluginLink::OnChunk(const MuxChunk& chunk) {
  const bool responses = chunk.conn_id == kPluginConnId;
  if (!responses && chunk.conn_id != kRuntimeConnId) {
    return OkStatus();  // Upstream drops frames for unknown ids.
  }
  TtrpcReader& reader = responses ? responses_ : requests_;
  reader.Append(chunk.payload);
  while (true) {
    GCUSHARE_ASSIGN_OR_RETURN(std::optional<TtrpcFrame> frame, reader.Next());
    if (!frame.has_value()) return OkStatus();
    GCUSHARE_RETURN_IF_ERROR(responses ? OnResponse(*frame)
                                       : OnRequest(*frame));
  }
}

Status PluginLink::OnResponse(const TtrpcFrame& frame) {
  if (frame.type != kTtrpcResponse) {
    return InvalidArgumentError("frame type " + std::to_string(frame.type) +
                                " on the plugin service's connection");
  }
  GCUSHARE_ASSIGN_OR_RETURN(TtrpcResponse response,
                            DecodeTtrpcResponse(frame.body));
  base::MutexLock lock(mu_);
  auto it = calls_.find(frame.stream_id);
  if (it == calls_.end()) return OkStatus();  // Late: the call timed out.
  it->second->done = true;
  it->second->response = std::move(response);
  cv_.NotifyAll();
  return OkStatus();
}

Status PluginLink::OnRequest(const TtrpcFrame& frame) {
  if (frame.type != kTtrpcRequest) {
    return InvalidArgumentError("frame type " + std::to_string(frame.type) +
                                " on the runtime service's connection");
  }
  GCUSHARE_ASSIGN_OR_RETURN(TtrpcRequest request,
                            DecodeTtrpcRequest(frame.body));
  TtrpcResponse response;
  auto method = methods_.find(request.method);
  if (request.service != runtime_service_) {
    response.code = static_cast<int32_t>(StatusCode::kUnimplemented);
    response.message = "service " + request.service;
  } else if (method == methods_.end()) {
    response.code = static_cast<int32_t>(StatusCode::kUnimplemented);
    response.message = "method " + request.method;
  } else {
    StatusOr<std::string> answer = method->second(request);
    if (answer.ok()) {
      response.payload = std::move(*answer);
    } else {
      response.code = static_cast<int32_t>(answer.status().code());
      response.message = std::string(answer.status().message());
    }
  }
  Status sent = Send(EncodeMuxMessage(
      kRuntimeConnId, EncodeTtrpcFrame({frame.stream_id, kTtrpcResponse, 0,
                                        EncodeTtrpcResponse(response)})));
  if (!sent.ok() && !closed_.load()) return sent;
  return OkStatus();
}

void PluginLink::Finish(const Status& why) {
  {
    base::MutexLock write(write_mu_);
    closed_.store(true);
    ::shutdown(fd_.get(), SHUT_RDWR);
  }
  {
    base::MutexLock lock(mu_);
    if (ended_.has_value()) return;
    ended_ = why;
    cv_.NotifyAll();
  }
  if (on_closed_) on_closed_(why);
}

}  // namespace gcushare::nri_runtime
