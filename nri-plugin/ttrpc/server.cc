#include "nri-plugin/ttrpc/server.h"

#include <spdlog/spdlog.h>

#include "base/guarded_thread.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "nri-plugin/api/ttrpc.pb.h"
#include "nri-plugin/ttrpc/bounded_parse.h"
#include "nri-plugin/ttrpc/status_codec.h"

namespace gcushare::nri::ttrpc {

Server::Server(ByteSink* sink, int workers) : sink_(sink) {
  if (workers < 1) workers = 1;
  for (int i = 0; i < workers; ++i) {
    workers_.push_back(
        base::StartGuardedThread("ttrpc worker", [this] { Work(); }));
  }
}

Server::~Server() { Stop(); }

void Server::Register(const std::string& service, const std::string& method,
                      Handler handler) {
  handlers_[service + "/" + method] = std::move(handler);
  services_[service] = true;
}

Status Server::OnBytes(std::string_view bytes) {
  decoder_.Append(bytes);
  while (true) {
    StatusOr<std::optional<Frame>> next = decoder_.Next();
    if (!next.ok()) return next.status();
    if (!next->has_value()) return OkStatus();
    Frame& frame = **next;
    if (frame.header.type != static_cast<uint8_t>(FrameType::kRequest)) {
      return DataLossError("ttrpc server got a frame of type " +
                           std::to_string(frame.header.type) + " on stream " +
                           std::to_string(frame.header.stream_id));
    }
    if (frame.header.flags != 0) {
      return DataLossError("ttrpc streaming request (flags " +
                           std::to_string(frame.header.flags) + ") on stream " +
                           std::to_string(frame.header.stream_id) +
                           ": NRI uses unary calls only");
    }
    ::ttrpc::Request request;
    Status parsed = ParseBounded(
        frame.data, &request,
        "ttrpc request on stream " + std::to_string(frame.header.stream_id));
    if (!parsed.ok()) return DataLossError(parsed.message());
    Call call;
    call.context.stream_id = frame.header.stream_id;
    call.context.service = request.service();
    call.context.method = request.method();
    call.context.timeout_nano = request.timeout_nano();
    for (const auto& kv : request.metadata()) {
      call.context.metadata.emplace_back(kv.key(), kv.value());
    }
    call.payload = std::move(*request.mutable_payload());
    {
      base::MutexLock lock(mu_);
      if (stopping_) return OkStatus();
      queue_.push_back(std::move(call));
    }
    cv_.NotifyOne();
  }
}

void Server::Stop() {
  {
    base::MutexLock lock(mu_);
    stopping_ = true;
    queue_.clear();
  }
  cv_.NotifyAll();
  for (std::thread& t : workers_) {
    if (t.joinable()) t.join();
  }
}

void Server::Work() {
  while (true) {
    Call call;
    {
      base::MutexLock lock(mu_);
      cv_.Wait(lock,
               [this]() REQUIRES(mu_) { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      call = std::move(queue_.front());
      queue_.pop_front();
    }
    Answer(call);
  }
}

void Server::Answer(const Call& call) {
  const RequestContext& c = call.context;
  StatusOr<std::string> result = UnimplementedError("service " + c.service);
  auto it = handlers_.find(c.service + "/" + c.method);
  if (it != handlers_.end()) {
    result = it->second(c, call.payload);
  } else if (services_.count(c.service) > 0) {
    result = UnimplementedError("method " + c.method);
  }
  ::ttrpc::Response response;
  if (result.ok()) {
    response.set_payload(std::move(*result));
  } else {
    *response.mutable_status() = ToRpcStatus(result.status());
  }
  StatusOr<std::string> frame = EncodeFrame(c.stream_id, FrameType::kResponse,
                                            0, response.SerializeAsString());
  if (!frame.ok()) {
    ::ttrpc::Response too_big;
    *too_big.mutable_status() = ToRpcStatus(frame.status());
    frame = EncodeFrame(c.stream_id, FrameType::kResponse, 0,
                        too_big.SerializeAsString());
  }
  if (Status s = sink_->Write(*frame); !s.ok()) {
    spdlog::debug("ttrpc {}/{}: response dropped: {}", c.service, c.method,
                  s.ToString());
  }
}

}  // namespace gcushare::nri::ttrpc
