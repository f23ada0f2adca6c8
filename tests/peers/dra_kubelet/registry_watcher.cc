#include "tests/peers/dra_kubelet/registry_watcher.h"

#include <dirent.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <utility>

namespace gcushare::peers::dra_kubelet {

RegistryWatcher::RegistryWatcher(std::string dir, Callbacks callbacks)
    : dir_(std::move(dir)), callbacks_(std::move(callbacks)) {}

RegistryWatcher::~RegistryWatcher() { Stop(); }

Status RegistryWatcher::Start() {
  inotify_fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (inotify_fd_ < 0) return ErrnoToStatus(errno, "inotify_init1");
  if (::inotify_add_watch(inotify_fd_, dir_.c_str(),
                          IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM) <
      0) {
    Status status = ErrnoToStatus(errno, "inotify_add_watch " + dir_);
    ::close(inotify_fd_);
    inotify_fd_ = -1;
    return status;
  }
  stop_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (stop_fd_ < 0) {
    Status status = ErrnoToStatus(errno, "eventfd");
    ::close(inotify_fd_);
    inotify_fd_ = -1;
    return status;
  }
  if (DIR* handle = ::opendir(dir_.c_str())) {
    while (struct dirent* entry = ::readdir(handle)) {
      Report(entry->d_name);
    }
    ::closedir(handle);
  }
  thread_ = std::thread([this] { Loop(); });
  return OkStatus();
}

void RegistryWatcher::Stop() {
  if (stop_fd_ >= 0) {
    uint64_t one = 1;
    (void)!::write(stop_fd_, &one, sizeof(one));
  }
  if (thread_.joinable()) thread_.join();
  if (inotify_fd_ >= 0) ::close(inotify_fd_);
  if (stop_fd_ >= 0) ::close(stop_fd_);
  inotify_fd_ = -1;
  stop_fd_ = -1;
}

void RegistryWatcher::Report(const std::string& name) {
  if (name.empty() || name[0] == '.') return;
  std::string path = dir_ + "/" + name;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISSOCK(st.st_mode)) return;
  std::string identity =
      std::to_string(st.st_ino) + ":" +
      std::to_string(static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 +
                     st.st_ctim.tv_nsec);
  if (callbacks_.added) callbacks_.added(path, identity);
}

void RegistryWatcher::Loop() {
  alignas(struct inotify_event) char buffer[8192];
  while (true) {
    struct pollfd fds[2] = {{inotify_fd_, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;
    ssize_t n = ::read(inotify_fd_, buffer, sizeof(buffer));
    if (n <= 0) continue;
    for (ssize_t offset = 0; offset < n;) {
      auto* event = reinterpret_cast<struct inotify_event*>(buffer + offset);
      offset += sizeof(struct inotify_event) + event->len;
      if (event->len == 0) continue;
      std::string name = event->name;
      if (name.empty() || name[0] == '.') continue;
      if (event->mask & (IN_CREATE | IN_MOVED_TO)) {
        Report(name);
      } else if (event->mask & (IN_DELETE | IN_MOVED_FROM)) {
        if (callbacks_.removed) callbacks_.removed(dir_ + "/" + name);
      }
    }
  }
}

}  // namespace gcushare::peers::dra_kubelet
