// WatchStream: the queue of encoded watch events waiting to be written to one
// watch response, and the encoding of a watch event.
//
// The store pushes lines while holding its own lock (so events reach every
// stream in resourceVersion order, and a stream registered under that lock
// misses nothing); the HTTP thread of the watch pops them and writes them to
// the socket without holding the store lock, so a slow client never stalls a
// writer. A stream whose backlog exceeds its capacity is closed, as the real
// server terminates a watcher that cannot keep up; its client re-watches.
//
// Ownership: shared by the store (while registered) and the watch handler.
// Thread-safety: all methods are thread-safe.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_WATCH_STREAM_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_WATCH_STREAM_H_

#include <chrono>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "base/mutex.h"

namespace gcushare::apiserver {

// One line of a watch response: {"type":"<type>","object":<object>}\n.
std::string EncodeWatchEvent(std::string_view type,
                             std::string_view object_json);

class WatchStream {
 public:
  explicit WatchStream(size_t capacity) : capacity_(capacity) {}
  WatchStream(const WatchStream&) = delete;
  WatchStream& operator=(const WatchStream&) = delete;

  // Queues a line. Closes the stream instead when the backlog is full; a
  // closed stream ignores pushes.
  void Push(std::string line) EXCLUDES(mu_);

  enum class PopResult { kLines, kTimeout, kClosed };
  // Waits until lines are queued, the stream is closed, or `deadline`
  // passes; appends every queued line to `out`. Lines queued before Close()
  // are still delivered (kLines) before kClosed is reported.
  PopResult PopAll(std::chrono::steady_clock::time_point deadline,
                   std::vector<std::string>* out) EXCLUDES(mu_);

  void Close() EXCLUDES(mu_);
  bool closed() const EXCLUDES(mu_);
  bool empty() const EXCLUDES(mu_);

 private:
  const size_t capacity_;
  mutable base::Mutex mu_;
  base::CondVar cv_;
  std::deque<std::string> lines_ GUARDED_BY(mu_);
  bool closed_ GUARDED_BY(mu_) = false;
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_WATCH_STREAM_H_
