#include "nri-plugin/ttrpc/client.h"

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "nri-plugin/api/ttrpc.pb.h"
#include "nri-plugin/ttrpc/status_codec.h"

namespace gcushare::nri::ttrpc {

StatusOr<std::string> Client::Call(std::string_view service,
                                   std::string_view method,
                                   const std::string& payload,
                                   std::chrono::nanoseconds timeout,
                                   const Metadata& metadata) {
  ::ttrpc::Request request;
  request.set_service(std::string(service));
  request.set_method(std::string(method));
  request.set_payload(payload);
  request.set_timeout_nano(timeout.count());
  for (const auto& [key, value] : metadata) {
    ::ttrpc::KeyValue* kv = request.add_metadata();
    kv->set_key(key);
    kv->set_value(value);
  }
  const std::string what = std::string(service) + "/" + std::string(method);
  auto pending = std::make_shared<Pending>();
  uint32_t stream;
  {
    base::MutexLock lock(mu_);
    if (failed_)
      return Status(failed_->code(), what + ": " + failed_->message());
    stream = next_stream_;
    next_stream_ += 2;
    pending_[stream] = pending;
  }
  auto forget = [&] {
    base::MutexLock lock(mu_);
    pending_.erase(stream);
  };
  StatusOr<std::string> frame =
      EncodeFrame(stream, FrameType::kRequest, 0, request.SerializeAsString());
  if (!frame.ok()) {
    forget();
    return frame.status().WithContext(what);
  }
  if (Status s = sink_->Write(*frame); !s.ok()) {
    forget();
    return s.WithContext(what);
  }
  base::MutexLock lock(mu_);
  if (!cv_.WaitFor(lock, timeout,
                   [&]() REQUIRES(mu_) { return pending->done; })) {
    pending_.erase(stream);
    return DeadlineExceededError(what + ": no response within " +
                                 std::to_string(timeout.count() / 1000000) +
                                 " ms");
  }
  if (!pending->status.ok()) {
    return Status(pending->status.code(),
                  what + ": " + pending->status.message());
  }
  return std::move(pending->payload);
}

Status Client::OnBytes(std::string_view bytes) {
  decoder_.Append(bytes);
  while (true) {
    StatusOr<std::optional<Frame>> next = decoder_.Next();
    if (!next.ok()) return next.status();
    if (!next->has_value()) return OkStatus();
    Frame& frame = **next;
    if (frame.header.type != static_cast<uint8_t>(FrameType::kResponse)) {
      return DataLossError("ttrpc client got a frame of type " +
                           std::to_string(frame.header.type) + " on stream " +
                           std::to_string(frame.header.stream_id));
    }
    ::ttrpc::Response response;
    Status parsed = ParseBounded(
        frame.data, &response,
        "ttrpc response on stream " + std::to_string(frame.header.stream_id));
    if (!parsed.ok()) return DataLossError(parsed.message());
    base::MutexLock lock(mu_);
    auto it = pending_.find(frame.header.stream_id);
    if (it == pending_.end()) {
      // Late answer to a call that timed out, or a stream we never opened.
      if (frame.header.stream_id % 2 == 1 &&
          frame.header.stream_id < next_stream_) {
        continue;
      }
      return DataLossError("ttrpc response for stream " +
                           std::to_string(frame.header.stream_id) +
                           " that no call opened");
    }
    it->second->done = true;
    it->second->status =
        response.has_status() ? FromRpcStatus(response.status()) : OkStatus();
    it->second->payload = std::move(*response.mutable_payload());
    pending_.erase(it);
    cv_.NotifyAll();
  }
}

void Client::Fail(const Status& why) {
  base::MutexLock lock(mu_);
  if (!failed_) {
    failed_ = why.ok() ? UnavailableError("connection closed")
                       : UnavailableError(why.message());
  }
  for (auto& [stream, pending] : pending_) {
    pending->done = true;
    pending->status = *failed_;
  }
  pending_.clear();
  cv_.NotifyAll();
}

}  // namespace gcushare::nri::ttrpc
