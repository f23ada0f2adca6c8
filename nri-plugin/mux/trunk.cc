#include "nri-plugin/mux/trunk.h"

#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "base/guarded_thread.h"
#include "base/mutex.h"

namespace gcushare::nri::mux {

class Trunk::ConnSink : public ByteSink {
 public:
  ConnSink(Trunk* trunk, uint32_t conn) : trunk_(trunk), conn_(conn) {}
  Status Write(std::string_view bytes) override {
    return trunk_->Write(conn_, bytes);
  }

 private:
  Trunk* trunk_;
  uint32_t conn_;
};

Trunk::Trunk(UniqueFd fd, TrunkOptions options)
    : fd_(std::move(fd)), options_(options) {
  (void)SetSendTimeout(fd_.get(), options_.send_timeout);
}

Trunk::~Trunk() {
  Close();
  Join();
}

void Trunk::Attach(uint32_t conn_id, ByteReceiver* receiver) {
  receivers_[conn_id] = receiver;
}

ByteSink* Trunk::Sink(uint32_t conn_id) {
  base::MutexLock lock(sinks_mu_);
  auto& sink = sinks_[conn_id];
  if (!sink) sink = std::make_unique<ConnSink>(this, conn_id);
  return sink.get();
}

void Trunk::Start(std::function<void(const Status&)> on_closed) {
  on_closed_ = std::move(on_closed);
  reader_ = base::StartGuardedThread("nri mux reader", [this] { ReadLoop(); });
}

Status Trunk::Write(uint32_t conn_id, std::string_view bytes) {
  if (closing_.load() || closed_.load()) {
    return UnavailableError("NRI connection is closed");
  }
  std::string frames = EncodeMuxFrames(conn_id, bytes, options_.write_chunk);
  base::MutexLock lock(write_mu_);
  size_t sent = 0;
  while (sent < frames.size()) {
    ssize_t n = ::send(fd_.get(), frames.data() + sent, frames.size() - sent,
                       MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      Status s = ErrnoToStatus(n < 0 ? errno : EPIPE, "write to NRI socket");
      Status reason = UnavailableError(s.message());
      // A half-written frame leaves the peer out of step: end the trunk.
      Close();
      return reason;
    }
    sent += static_cast<size_t>(n);
  }
  return OkStatus();
}

void Trunk::Close() {
  if (closing_.exchange(true)) return;
  ::shutdown(fd_.get(), SHUT_RDWR);
}

void Trunk::Join() {
  if (reader_.joinable()) reader_.join();
}

bool Trunk::WaitClosed(std::chrono::milliseconds timeout) {
  base::MutexLock lock(state_mu_);
  return state_cv_.WaitFor(lock, timeout, [this] { return closed_.load(); });
}

Status Trunk::close_reason() const {
  base::MutexLock lock(state_mu_);
  return close_reason_;
}

void Trunk::Finish(const Status& reason) {
  Close();
  {
    base::MutexLock lock(state_mu_);
    close_reason_ = reason;
    closed_.store(true);
  }
  if (on_closed_) on_closed_(reason);
  state_cv_.NotifyAll();
}

void Trunk::ReadLoop() {
  MuxDecoder decoder(options_.max_read_payload);
  char buf[64 * 1024];
  while (true) {
    ssize_t n = ::read(fd_.get(), buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (closing_.load()) {
        return Finish(
            Status(StatusCode::kCancelled, "NRI connection closed locally"));
      }
      if (n == 0) {
        Status reason =
            decoder.buffered() > 0
                ? DataLossError(
                      "NRI peer closed the connection "
                      "in the middle of a frame")
                : UnavailableError("NRI peer closed the connection");
        return Finish(reason);
      }
      return Finish(UnavailableError(
          ErrnoToStatus(errno, "read from NRI socket").message()));
    }
    decoder.Append(std::string_view(buf, static_cast<size_t>(n)));
    while (true) {
      StatusOr<std::optional<MuxFrame>> next = decoder.Next();
      if (!next.ok()) return Finish(next.status());
      if (!next->has_value()) break;
      MuxFrame& frame = **next;
      auto it = receivers_.find(frame.conn_id);
      if (it == receivers_.end()) {
        if (options_.close_on_unknown_conn) {
          return Finish(
              DataLossError("NRI mux frame for unknown connection id " +
                            std::to_string(frame.conn_id)));
        }
        spdlog::debug("dropping {}-byte mux frame for unknown connection {}",
                      frame.payload.size(), frame.conn_id);
        continue;
      }
      Status s = it->second->OnBytes(frame.payload);
      if (!s.ok()) {
        return Finish(
            s.WithContext("connection " + std::to_string(frame.conn_id)));
      }
    }
  }
}

}  // namespace gcushare::nri::mux
