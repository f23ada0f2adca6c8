// Test support for the stand-in API server: an in-process server on a free
// port, plain HTTP requests against it, and a watch reader that decodes the
// chunked stream itself (so tests see exactly what a client would).
//
// Not for production code. Thread-safety: one test thread per object.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_TESTING_TEST_SERVER_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_TESTING_TEST_SERVER_H_

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tests/peers/apiserver/api_server.h"
#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver::testing {

struct HttpResult {
  int status = 0;  // 0: no response.
  std::string body;
  std::string content_type;
  Json json;  // The parsed body (null when not JSON).
};

// Sends one request to 127.0.0.1:<port>.
HttpResult Request(int port, const std::string& method, const std::string& path,
                   const std::string& body = "",
                   const std::string& content_type = "application/json",
                   const std::string& token = "");

class TestServer {
 public:
  // Starts a server; aborts the test binary if it cannot.
  explicit TestServer(ServerOptions options = ServerOptions());
  ~TestServer();

  int port() const { return server_->port(); }
  ApiServer& server() { return *server_; }

  HttpResult Get(const std::string& path) { return Do("GET", path); }
  HttpResult Post(const std::string& path, const std::string& body) {
    return Do("POST", path, body);
  }
  HttpResult Put(const std::string& path, const std::string& body) {
    return Do("PUT", path, body);
  }
  HttpResult Patch(const std::string& path, const std::string& body,
                   const std::string& content_type) {
    return Do("PATCH", path, body, content_type);
  }
  HttpResult Delete(const std::string& path, const std::string& body = "") {
    return Do("DELETE", path, body);
  }
  HttpResult Do(const std::string& method, const std::string& path,
                const std::string& body = "",
                const std::string& content_type = "application/json") {
    return Request(port(), method, path, body, content_type);
  }

  // Creates a pod / node from a short description; the created object.
  Json CreatePod(const std::string& ns, const std::string& name,
                 const Json& labels = Json::object(),
                 const std::string& node = "");
  Json CreateNode(const std::string& name, const Json& labels = Json::object());

 private:
  std::unique_ptr<ApiServer> server_;
};

// A watch request read from a raw socket.
class WatchReader {
 public:
  // Sends GET <path> and reads the response headers; aborts the test binary
  // if it cannot connect.
  WatchReader(int port, const std::string& path, const std::string& token = "");
  ~WatchReader();
  WatchReader(const WatchReader&) = delete;
  WatchReader& operator=(const WatchReader&) = delete;

  int status() const { return status_; }
  // Lower-cased header name -> value.
  const std::map<std::string, std::string>& headers() const { return headers_; }

  // The next event, or nullopt when `timeout` passes or the stream ended.
  std::optional<Json> Next(
      std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Skips BOOKMARK events.
  std::optional<Json> NextNonBookmark(
      std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Waits for the terminating chunk (a clean end); false on timeout.
  bool WaitForEnd(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  bool ended() const { return ended_; }
  // The size of every data chunk decoded so far, in arrival order.
  const std::vector<size_t>& chunk_sizes() const { return chunk_sizes_; }

 private:
  // Reads more bytes (waiting until `deadline`); false on EOF or timeout.
  bool Fill(std::chrono::steady_clock::time_point deadline);
  // Moves complete chunks from raw_ to body_.
  void DecodeChunks();

  int fd_ = -1;
  int status_ = 0;
  std::map<std::string, std::string> headers_;
  std::string raw_;   // Undecoded bytes after the headers.
  std::string body_;  // Decoded bytes not yet returned as events.
  bool ended_ = false;
  std::vector<size_t> chunk_sizes_;
};

}  // namespace gcushare::apiserver::testing

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_TESTING_TEST_SERVER_H_
