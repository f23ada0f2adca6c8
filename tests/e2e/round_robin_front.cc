#include "tests/e2e/round_robin_front.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/extender/harness.h"

namespace gcushare::e2e {

RoundRobinFront::RoundRobinFront(size_t backends, std::string ready_path,
                                 std::chrono::milliseconds probe_period)
    : ready_path_(std::move(ready_path)),
      probe_period_(probe_period),
      ports_(backends),
      ready_(backends) {
  for (auto& p : ports_) p = 0;
  for (auto& r : ready_) r = false;
}

RoundRobinFront::~RoundRobinFront() { Stop(); }

void RoundRobinFront::SetPort(size_t backend, int port) {
  ports_[backend] = port;
}

Status RoundRobinFront::Start() {
  listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) return InternalError("socket failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      listen(listen_fd_, 128) != 0) {
    return InternalError("cannot listen");
  }
  socklen_t len = sizeof(addr);
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { Accept(); });
  prober_ = std::thread([this] { Probe(); });
  return OkStatus();
}

void RoundRobinFront::Stop() {
  if (stopping_.exchange(true)) return;
  if (listen_fd_ >= 0) shutdown(listen_fd_, SHUT_RDWR);
  if (acceptor_.joinable()) acceptor_.join();
  if (prober_.joinable()) prober_.join();
  if (listen_fd_ >= 0) close(listen_fd_);
  std::lock_guard<std::mutex> lock(relays_mu_);
  for (auto& t : relays_) t.join();
}

void RoundRobinFront::Probe() {
  while (!stopping_) {
    for (size_t i = 0; i < ports_.size(); ++i) {
      const int port = ports_[i];
      ready_[i] =
          port != 0 && testing::HttpGet(port, ready_path_).status == 200;
    }
    std::this_thread::sleep_for(probe_period_);
  }
}

int RoundRobinFront::Connect() {
  for (size_t tries = 0; tries < ports_.size(); ++tries) {
    const size_t i = next_++ % ports_.size();
    if (!ready_[i]) continue;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(ports_[i].load()));
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
      return fd;
    }
    close(fd);
  }
  return -1;
}

void RoundRobinFront::Accept() {
  while (!stopping_) {
    int client = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    std::lock_guard<std::mutex> lock(relays_mu_);
    relays_.emplace_back([this, client] { Relay(client); });
  }
}

void RoundRobinFront::Relay(int client) {
  const int backend = Connect();
  if (backend < 0) {
    close(client);  // As kube-proxy with no ready endpoint: refused.
    return;
  }
  pollfd fds[2] = {{client, POLLIN, 0}, {backend, POLLIN, 0}};
  char buffer[16384];
  while (!stopping_) {
    if (poll(fds, 2, 200) < 0) break;
    bool done = false;
    for (int k = 0; k < 2 && !done; ++k) {
      if (fds[k].revents == 0) continue;
      const ssize_t n = read(fds[k].fd, buffer, sizeof(buffer));
      if (n <= 0) {
        done = true;
        break;
      }
      const int to = fds[1 - k].fd;
      for (ssize_t sent = 0; sent < n;) {
        const ssize_t w = write(to, buffer + sent, n - sent);
        if (w <= 0) {
          done = true;
          break;
        }
        sent += w;
      }
    }
    if (done) break;
  }
  close(client);
  close(backend);
}

}  // namespace gcushare::e2e
