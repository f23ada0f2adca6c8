// FramedHttpServer: a small HTTP/1.1 server whose workers only ever see
// whole requests. One I/O thread accepts connections and reads and writes
// them non-blocking (poll); a request goes to the worker pool only once its
// head and body are all buffered, and the answer goes back to the I/O thread
// to be written. A client trickling bytes (head or body) therefore holds a
// few buffered bytes and a descriptor, never a worker.
//
// Limits, each answered and the connection closed:
//   head not whole within head_timeout of its first byte       408
//   body not whole within body_timeout of the end of the head  408
//   a connection silent for read_timeout mid-request           408
//   head over limits.max_head_bytes                             431
//   POST/PUT without Content-Length, or chunked                 411
//   Content-Length over limits.max_body_bytes                   413
//   max_connections open, or the bytes buffered for requests
//   and answers over max_buffered_bytes                          503
// An idle keep-alive connection is closed after read_timeout; an answer
// not taken by the client within read_timeout is dropped with the
// connection. Keep-alive and "Expect: 100-continue" are honoured; requests
// on one connection are answered in order.
//
// Ownership: the handler is owned; sockets are owned and closed by Stop().
// Thread-safety: Start/Stop from one thread; the handler runs on the
// worker threads, concurrently. Failure: Start returns Unavailable when
// the address cannot be bound; afterwards errors only close connections.
#ifndef GCUSHARE_HTTP_FRAMED_HTTP_SERVER_H_
#define GCUSHARE_HTTP_FRAMED_HTTP_SERVER_H_

#include <poll.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "http/http_framing.h"
#include "status/status.h"

namespace gcushare::http {

struct HttpResponse {
  int status = 200;
  std::string body;
  std::string content_type = "text/plain";
};

struct FramedHttpOptions {
  std::string address = "0.0.0.0";
  int port = 0;  // 0: any free port (see port()).
  int worker_threads = 32;
  FramingLimits limits;
  std::chrono::milliseconds head_timeout{5000};
  std::chrono::milliseconds body_timeout{5000};
  std::chrono::milliseconds read_timeout{5000};
  size_t max_connections = 512;
  size_t max_buffered_bytes = size_t{32} << 20;
};

class FramedHttpServer {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest&)>;
  // Called on the I/O thread for every request refused by the framing
  // (its status), e.g. to count it.
  using RefusalObserver = std::function<void(int status)>;

  FramedHttpServer(FramedHttpOptions options, Handler handler,
                   RefusalObserver on_refused = nullptr);
  ~FramedHttpServer();  // Stop()s.

  Status Start();
  // Closes every connection; a request being handled is answered to no one.
  void Stop();
  int port() const { return port_; }
  // Connections open now (any thread).
  size_t open_connections() const { return open_.load(); }

 private:
  struct Connection;
  // A serialized answer: its head, and its body as the handler returned it
  // (sent after the head without being copied next to it; a /metrics body
  // is megabytes at thousands of nodes).
  struct Answer {
    std::string head;
    std::string body;
    size_t size() const { return head.size() + body.size(); }
  };
  struct Done {
    uint64_t id;
    Answer answer;
    bool close;
  };

  void IoLoop();
  // Fills the poll set: the wake pipe, the listener, then one entry per
  // connection (ids[i] names fds[i]'s). Returns the earliest deadline.
  std::chrono::steady_clock::time_point FillPollSet(std::vector<pollfd>& fds,
                                                    std::vector<uint64_t>& ids);
  // One connection's round: its I/O for `revents`, then its deadlines.
  void Serve(Connection& c, short revents,
             std::chrono::steady_clock::time_point now);
  void WorkerLoop();
  void Accept();
  // Reads what the socket has; false when the connection is gone.
  bool ReadFrom(Connection& c);
  // Frames what is buffered: dispatches a whole request or refuses.
  void Advance(Connection& c);
  // Writes what is pending; false when the connection is to be closed.
  bool WriteTo(Connection& c);
  void Refuse(Connection& c, int status, const std::string& message);
  void Queue(Connection& c, Answer answer, bool close);
  void TakeDone();
  void Close(uint64_t id);
  size_t Charged(const Connection& c) const;

  const FramedHttpOptions options_;
  const Handler handler_;
  const RefusalObserver on_refused_;
  int listen_fd_ = -1;
  int wake_read_ = -1;
  int wake_write_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<size_t> open_{0};  // connections_.size(), for other threads.
  std::thread io_thread_;
  std::vector<std::thread> workers_;

  // I/O thread only.
  std::map<uint64_t, Connection> connections_;
  uint64_t next_id_ = 1;
  size_t buffered_ = 0;         // Sum of Charged() over connections_.
  bool accept_paused_ = false;  // Out of descriptors until one closes.

  base::Mutex mu_;
  base::CondVar work_ready_;
  std::deque<std::pair<uint64_t, HttpRequest>> jobs_ GUARDED_BY(mu_);
  std::vector<Done> done_ GUARDED_BY(mu_);
};

}  // namespace gcushare::http

#endif  // GCUSHARE_HTTP_FRAMED_HTTP_SERVER_H_
