// A tiny HTTP server for tests, on 127.0.0.1, whose answers each test
// scripts byte for byte: canned JSON, chosen status codes, and streamed
// bodies fed chunk by chunk (split mid-object, one byte at a time, ended
// cleanly or cut off). Every request is recorded before its handler runs,
// so tests can assert query parameters and headers, even of a watch that
// is still streaming.
//
// Thread-safety: Handle() before Start(); everything else from any thread.
// Ownership: handlers run on the server's threads and may capture test
// state that outlives the server.
#ifndef GCUSHARE_KUBE_TESTING_SCRIPTED_SERVER_H_
#define GCUSHARE_KUBE_TESTING_SCRIPTED_SERVER_H_

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::kube::testing {

struct RecordedRequest {
  std::string method;
  std::string path;
  std::multimap<std::string, std::string> params;  // Decoded query.
  httplib::Headers headers;
  std::string body;

  std::string Param(const std::string& key) const;  // "" when absent.
  bool HasParam(const std::string& key) const;
  std::string Header(const std::string& key) const;  // "" when absent.
};

// A response body that the test feeds while the client reads it.
class ChunkFeed {
 public:
  enum class Step { kChunk, kEnd, kDrop, kNone };

  void Push(std::string chunk);
  // Pushes each byte of `text` as its own chunk.
  void PushBytewise(const std::string& text);
  // Ends the response cleanly after what was pushed.
  void End();
  // Cuts the connection after what was pushed (no terminating chunk).
  void Drop();

  // For the server: the next step, waiting up to `wait` for one.
  Step Next(std::string* chunk, std::chrono::milliseconds wait);

 private:
  base::Mutex mu_;
  base::CondVar cv_;
  std::deque<std::pair<Step, std::string>> steps_ GUARDED_BY(mu_);
};

// PEM files for a TLS server; client_ca_file non-empty demands client
// certificates signed by it.
struct ServerTls {
  std::string cert_file;
  std::string key_file;
  std::string client_ca_file;
};

class ScriptedServer {
 public:
  ScriptedServer();                               // Plain HTTP.
  explicit ScriptedServer(const ServerTls& tls);  // HTTPS.
  ~ScriptedServer();                              // Stop()s.
  ScriptedServer(const ScriptedServer&) = delete;
  ScriptedServer& operator=(const ScriptedServer&) = delete;

  // `method` is GET/POST/PUT/PATCH/DELETE; `pattern` a regex on the path.
  void Handle(const std::string& method, const std::string& pattern,
              httplib::Server::Handler handler);

  // Listens on 127.0.0.1:`port` (0: any free port); returns the port, or
  // aborts the test binary when it cannot bind.
  int Start(int port = 0);
  // Cuts every open stream and stops; idempotent.
  void Stop();

  int port() const { return port_; }
  // "http://127.0.0.1:<port>" or "https://...".
  std::string url() const;

  std::vector<RecordedRequest> requests() const;
  // Requests with this method whose path is `path`.
  std::vector<RecordedRequest> RequestsTo(const std::string& method,
                                          const std::string& path) const;
  // Waits (bounded, real time) until `count` recorded requests satisfy
  // `match`; false on timeout.
  bool WaitForRequests(
      std::function<bool(const RecordedRequest&)> match, size_t count = 1,
      std::chrono::milliseconds timeout = std::chrono::seconds(20));

  // Serves `feed` as a chunked application/json body.
  void Stream(httplib::Response& response,
              const std::shared_ptr<ChunkFeed>& feed);

  // Sets a JSON body.
  static void Json(httplib::Response& response, int status,
                   const std::string& body);

 private:
  void Record(const httplib::Request& request);

  std::unique_ptr<httplib::Server> server_;
  bool tls_ = false;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  int port_ = 0;
  mutable base::Mutex mu_;
  base::CondVar requests_cv_;
  std::vector<RecordedRequest> requests_ GUARDED_BY(mu_);
};

}  // namespace gcushare::kube::testing

#endif  // GCUSHARE_KUBE_TESTING_SCRIPTED_SERVER_H_
