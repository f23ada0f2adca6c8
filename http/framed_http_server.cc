#include "http/framed_http_server.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>

#include "base/guarded_thread.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::http {
namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kReadChunk = 64 << 10;

std::string Head(int status, std::string_view content_type, size_t body_size,
                 bool close) {
  std::string out = "HTTP/1.1 " + std::to_string(status) + " " +
                    std::string(ReasonPhrase(status)) + "\r\n";
  out += "Content-Type: " + std::string(content_type) + "\r\n";
  out += "Content-Length: " + std::to_string(body_size) + "\r\n";
  out += close ? "Connection: close\r\n\r\n" : "Connection: keep-alive\r\n\r\n";
  return out;
}

}  // namespace

struct FramedHttpServer::Connection {
  enum class Phase {
    kIdle,      // Between requests: nothing of the next one read yet.
    kHead,      // Reading a head.
    kBody,      // Head parsed; reading its body.
    kHandling,  // The request is with a worker.
    kWriting,   // Writing an answer.
    kDraining,  // Answered and closing: discarding what the client still
                // sends so that the close does not reset the answer away.
  };
  uint64_t id = 0;
  int fd = -1;
  Phase phase = Phase::kIdle;
  std::string in;             // Read, not yet handed to a worker.
  HeadParse head;             // kBody.
  size_t handling_bytes = 0;  // kHandling: the size of the request.
  Answer out;                 // kWriting.
  size_t written = 0;         // Of out's head, then body.
  bool close_after_write = false;
  bool keep_alive = true;
  bool dead = false;  // To be closed at the end of this I/O round.
  Clock::time_point last_read;
  Clock::time_point deadline;  // Of the head, body, write or drain.
  size_t charge = 0;           // Counted in buffered_.
};

FramedHttpServer::FramedHttpServer(FramedHttpOptions options, Handler handler,
                                   RefusalObserver on_refused)
    : options_(std::move(options)),
      handler_(std::move(handler)),
      on_refused_(std::move(on_refused)) {}

FramedHttpServer::~FramedHttpServer() { Stop(); }

Status FramedHttpServer::Start() {
  const std::string where =
      options_.address + ":" + std::to_string(options_.port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (getaddrinfo(options_.address.c_str(),
                  std::to_string(options_.port).c_str(), &hints, &found) != 0 ||
      found == nullptr) {
    return UnavailableError("cannot listen on " + where +
                            " (not a numeric address)");
  }
  int fd = ::socket(found->ai_family,
                    found->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int yes = 1;
  bool ok = fd >= 0 &&
            ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes) == 0 &&
            ::bind(fd, found->ai_addr, found->ai_addrlen) == 0 &&
            ::listen(fd, 1024) == 0;
  const int error = errno;
  freeaddrinfo(found);
  sockaddr_storage bound{};
  socklen_t bound_len = sizeof bound;
  int pipe_fds[2] = {-1, -1};
  ok =
      ok &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &bound_len) == 0 &&
      ::pipe2(pipe_fds, O_NONBLOCK | O_CLOEXEC) == 0;
  if (!ok) {
    if (fd >= 0) ::close(fd);
    return UnavailableError("cannot listen on " + where + " (" +
                            std::strerror(error) +
                            "; port in use, or not allowed)");
  }
  listen_fd_ = fd;
  wake_read_ = pipe_fds[0];
  wake_write_ = pipe_fds[1];
  port_ = ntohs(bound.ss_family == AF_INET6
                    ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                    : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  stopping_ = false;
  for (int i = 0; i < options_.worker_threads; ++i) {
    workers_.push_back(
        base::StartGuardedThread("http worker", [this] { WorkerLoop(); }));
  }
  io_thread_ = base::StartGuardedThread("http io", [this] { IoLoop(); });
  return OkStatus();
}

void FramedHttpServer::Stop() {
  if (!io_thread_.joinable()) return;
  {
    base::MutexLock lock(mu_);
    stopping_ = true;
  }
  work_ready_.NotifyAll();
  (void)!::write(wake_write_, "x", 1);
  io_thread_.join();
  for (auto& w : workers_) w.join();
  workers_.clear();
  for (auto& [id, c] : connections_) ::close(c.fd);
  connections_.clear();
  open_ = 0;
  buffered_ = 0;
  {
    base::MutexLock lock(mu_);  // The workers are gone; for the analysis.
    jobs_.clear();
    done_.clear();
  }
  for (int* fd : {&listen_fd_, &wake_read_, &wake_write_}) {
    ::close(*fd);
    *fd = -1;
  }
}

void FramedHttpServer::WorkerLoop() {
  for (;;) {
    std::pair<uint64_t, HttpRequest> job;
    {
      base::MutexLock lock(mu_);
      work_ready_.Wait(
          lock, [this]() REQUIRES(mu_) { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    HttpResponse response;
    try {
      response = handler_(job.second);
    } catch (const std::exception& e) {
      response =
          HttpResponse{500, std::string("internal error: ") + e.what() + "\n"};
    }
    const bool close = !job.second.keep_alive;
    Done done{job.first,
              Answer{Head(response.status, response.content_type,
                          response.body.size(), close),
                     std::move(response.body)},
              close};
    {
      base::MutexLock lock(mu_);
      done_.push_back(std::move(done));
    }
    (void)!::write(wake_write_, "x", 1);
  }
}

size_t FramedHttpServer::Charged(const Connection& c) const {
  size_t request = c.in.size();
  if (c.phase == Connection::Phase::kBody) {
    request = std::max(request, c.head.head_bytes + c.head.body_bytes);
  }
  return request + c.handling_bytes + (c.out.size() - c.written);
}

Clock::time_point FramedHttpServer::FillPollSet(std::vector<pollfd>& fds,
                                                std::vector<uint64_t>& ids) {
  fds.assign(
      {{wake_read_, POLLIN, 0},
       {listen_fd_, static_cast<short>(accept_paused_ ? 0 : POLLIN), 0}});
  ids.assign({0, 0});
  Clock::time_point next = Clock::now() + std::chrono::seconds(60);
  for (auto& [id, c] : connections_) {
    using Phase = Connection::Phase;
    short events = 0;
    Clock::time_point due = Clock::time_point::max();
    switch (c.phase) {
      case Phase::kIdle:
        events = POLLIN;
        due = c.last_read + options_.read_timeout;
        break;
      case Phase::kHead:
      case Phase::kBody:
        events = POLLIN;
        due = std::min(c.deadline, c.last_read + options_.read_timeout);
        break;
      case Phase::kHandling:
        break;
      case Phase::kWriting:
        events = POLLOUT;
        due = c.deadline;
        break;
      case Phase::kDraining:
        events = POLLIN;
        due = c.deadline;
        break;
    }
    next = std::min(next, due);
    // With a worker, the connection is left out (-1: poll skips it);
    // otherwise a client that reset it would report POLLHUP on every
    // round until the answer is ready.
    fds.push_back({events == 0 ? -1 : c.fd, events, 0});
    ids.push_back(id);
  }
  return next;
}

void FramedHttpServer::Serve(Connection& c, short revents,
                             Clock::time_point now) {
  using Phase = Connection::Phase;
  const bool readable = revents & (POLLIN | POLLHUP | POLLERR);
  if (c.phase == Phase::kWriting && (revents & (POLLOUT | POLLHUP | POLLERR))) {
    if (!WriteTo(c)) c.dead = true;
  } else if (readable && c.phase != Phase::kHandling &&
             c.phase != Phase::kWriting) {
    if (!ReadFrom(c)) {
      c.dead = true;
    } else {
      Advance(c);
    }
  }
  if (c.dead) return;
  // Deadlines.
  if (c.phase == Phase::kIdle && now >= c.last_read + options_.read_timeout) {
    c.dead = true;
  } else if ((c.phase == Phase::kHead || c.phase == Phase::kBody) &&
             (now >= c.deadline ||
              now >= c.last_read + options_.read_timeout)) {
    const bool head = c.phase == Phase::kHead;
    const auto limit = now >= c.deadline ? (head ? options_.head_timeout
                                                 : options_.body_timeout)
                                         : options_.read_timeout;
    Refuse(c, 408,
           std::string(head ? "request head" : "request body") +
               " not received within " + std::to_string(limit.count()) + " ms");
  } else if ((c.phase == Phase::kWriting || c.phase == Phase::kDraining) &&
             now >= c.deadline) {
    c.dead = true;
  }
}

void FramedHttpServer::IoLoop() {
  std::vector<pollfd> fds;
  std::vector<uint64_t> ids;
  while (!stopping_) {
    const Clock::time_point next = FillPollSet(fds, ids);
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(
                    next - Clock::now())
                    .count() +
                1;
    int ready = ::poll(fds.data(), fds.size(),
                       static_cast<int>(std::clamp<int64_t>(wait, 0, 60000)));
    if (ready < 0 && errno != EINTR) break;
    if (fds[0].revents != 0) {
      char drain[256];
      while (::read(wake_read_, drain, sizeof drain) > 0) {
      }
    }
    TakeDone();
    const Clock::time_point now = Clock::now();
    for (size_t i = 2; i < fds.size(); ++i) {
      auto it = connections_.find(ids[i]);
      if (it != connections_.end()) Serve(it->second, fds[i].revents, now);
    }
    std::vector<uint64_t> dead;
    for (auto& [id, c] : connections_) {
      if (c.dead) dead.push_back(id);
    }
    for (uint64_t id : dead) Close(id);
    // After the closes of this round, so that their slots are free.
    if (fds[1].revents != 0) Accept();
  }
}

void FramedHttpServer::Accept() {
  for (;;) {
    int fd =
        ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      // Out of descriptors: the pending connection would make the listening
      // socket readable forever; wait for a connection to close instead.
      if (errno == EMFILE || errno == ENFILE) accept_paused_ = true;
      return;  // EAGAIN, or the above.
    }
    if (connections_.size() >= options_.max_connections) {
      const std::string message = "too many open connections (" +
                                  std::to_string(options_.max_connections) +
                                  ")\n";
      const std::string busy =
          Head(503, "text/plain", message.size(), true) + message;
      (void)!::send(fd, busy.data(), busy.size(), MSG_NOSIGNAL);
      ::close(fd);
      if (on_refused_) on_refused_(503);
      continue;
    }
    int yes = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    Connection c;
    c.id = next_id_++;
    c.fd = fd;
    c.last_read = Clock::now();
    connections_.emplace(c.id, std::move(c));
    open_ = connections_.size();
  }
}

bool FramedHttpServer::ReadFrom(Connection& c) {
  using Phase = Connection::Phase;
  char buffer[kReadChunk];
  size_t want = sizeof buffer;
  if (c.phase == Phase::kBody) {
    want = std::min(want, c.head.head_bytes + c.head.body_bytes - c.in.size());
  } else if (c.phase != Phase::kDraining) {
    // One byte past the limit is enough to tell the head is too long.
    want = std::min(want,
                    options_.limits.max_head_bytes + 1 -
                        std::min(c.in.size(), options_.limits.max_head_bytes));
  }
  ssize_t n = ::recv(c.fd, buffer, std::max<size_t>(want, 1), 0);
  if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
  if (n == 0) return false;  // Closed by the client.
  if (c.phase == Phase::kDraining) return true;
  c.last_read = Clock::now();
  if (c.phase == Phase::kIdle) {
    c.phase = Phase::kHead;
    c.deadline = c.last_read + options_.head_timeout;
  }
  c.in.append(buffer, static_cast<size_t>(n));
  const size_t charge = Charged(c);
  buffered_ += charge - c.charge;
  c.charge = charge;
  return true;
}

void FramedHttpServer::Advance(Connection& c) {
  using Phase = Connection::Phase;
  if (c.phase == Phase::kHead) {
    HeadParse parsed = ParseHead(c.in, options_.limits);
    if (parsed.state == HeadParse::State::kRefused) {
      Refuse(c, parsed.status, parsed.message);
      return;
    }
    if (parsed.state == HeadParse::State::kIncomplete) {
      if (buffered_ > options_.max_buffered_bytes) {
        Refuse(c, 503, "server busy: too many request bytes buffered");
      }
      return;
    }
    c.head = std::move(parsed);
    c.phase = Phase::kBody;
    c.deadline = Clock::now() + options_.body_timeout;
    const size_t charge = Charged(c);  // Reserves the whole body.
    buffered_ += charge - c.charge;
    c.charge = charge;
    if (buffered_ > options_.max_buffered_bytes) {
      Refuse(c, 503, "server busy: too many request bytes buffered");
      return;
    }
    if (c.head.request.expect_continue &&
        c.in.size() < c.head.head_bytes + c.head.body_bytes) {
      static constexpr std::string_view kContinue =
          "HTTP/1.1 100 Continue\r\n\r\n";
      if (::send(c.fd, kContinue.data(), kContinue.size(),
                 MSG_NOSIGNAL | MSG_DONTWAIT) !=
          static_cast<ssize_t>(kContinue.size())) {
        c.dead = true;
        return;
      }
    }
  }
  if (c.phase == Phase::kBody &&
      c.in.size() >= c.head.head_bytes + c.head.body_bytes) {
    HttpRequest request = std::move(c.head.request);
    request.body = c.in.substr(c.head.head_bytes, c.head.body_bytes);
    c.in.erase(0, c.head.head_bytes + c.head.body_bytes);
    c.keep_alive = request.keep_alive;
    c.handling_bytes = c.head.head_bytes + c.head.body_bytes;
    c.head = HeadParse{};
    c.phase = Phase::kHandling;
    const size_t charge = Charged(c);
    buffered_ += charge - c.charge;
    c.charge = charge;
    {
      base::MutexLock lock(mu_);
      jobs_.emplace_back(c.id, std::move(request));
    }
    work_ready_.NotifyOne();
  }
}

void FramedHttpServer::Refuse(Connection& c, int status,
                              const std::string& message) {
  if (on_refused_) on_refused_(status);
  std::string body = message + "\n";
  std::string head = Head(status, "text/plain", body.size(), /*close=*/true);
  Queue(c, Answer{std::move(head), std::move(body)}, true);
  if (!WriteTo(c)) c.dead = true;
}

void FramedHttpServer::Queue(Connection& c, Answer answer, bool close) {
  c.handling_bytes = 0;
  c.out = std::move(answer);
  c.written = 0;
  c.close_after_write = close;
  c.phase = Connection::Phase::kWriting;
  c.deadline = Clock::now() + options_.read_timeout;
  const size_t charge = Charged(c);
  buffered_ += charge - c.charge;
  c.charge = charge;
}

bool FramedHttpServer::WriteTo(Connection& c) {
  while (c.written < c.out.size()) {
    // The rest of the head (if any), then the rest of the body.
    const std::string& head = c.out.head;
    const std::string& body = c.out.body;
    const size_t in_head = std::min(c.written, head.size());
    const size_t in_body = c.written - in_head;
    iovec parts[2];
    int count = 0;
    if (in_head < head.size()) {
      parts[count++] = {const_cast<char*>(head.data()) + in_head,
                        head.size() - in_head};
    }
    if (in_body < body.size()) {
      parts[count++] = {const_cast<char*>(body.data()) + in_body,
                        body.size() - in_body};
    }
    msghdr message{};
    message.msg_iov = parts;
    message.msg_iovlen = count;
    ssize_t n = ::sendmsg(c.fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
    c.written += static_cast<size_t>(n);
  }
  c.out = Answer{};
  c.written = 0;
  const Clock::time_point now = Clock::now();
  if (c.close_after_write) {
    // Lingering close: stop sending, discard what the client still sends
    // until it closes (or read_timeout), so its unread bytes do not turn
    // our close into a reset that could discard the answer.
    ::shutdown(c.fd, SHUT_WR);
    c.in.clear();
    c.phase = Connection::Phase::kDraining;
    c.deadline = now + options_.read_timeout;
  } else {
    c.phase =
        c.in.empty() ? Connection::Phase::kIdle : Connection::Phase::kHead;
    c.last_read = now;
    c.deadline = now + options_.head_timeout;
  }
  const size_t charge = Charged(c);
  buffered_ += charge - c.charge;
  c.charge = charge;
  if (c.phase == Connection::Phase::kHead) Advance(c);  // Pipelined.
  return true;
}

void FramedHttpServer::TakeDone() {
  std::vector<Done> done;
  {
    base::MutexLock lock(mu_);
    done.swap(done_);
  }
  for (Done& d : done) {
    auto it = connections_.find(d.id);
    if (it == connections_.end()) continue;
    Connection& c = it->second;
    Queue(c, std::move(d.answer), d.close || !c.keep_alive);
    if (!WriteTo(c)) c.dead = true;
  }
}

void FramedHttpServer::Close(uint64_t id) {
  auto it = connections_.find(id);
  if (it == connections_.end()) return;
  ::close(it->second.fd);
  buffered_ -= it->second.charge;
  connections_.erase(it);
  open_ = connections_.size();
  accept_paused_ = false;
}

}  // namespace gcushare::http
