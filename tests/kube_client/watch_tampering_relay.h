// Test support: a front for the stand-in API server, built on kube/testing's
// ScriptedServer, that relays every GET to it (lists and objects as whole
// responses; watches chunk by chunk as they arrive) and can slip a line of
// its own into the next watch stream, after that stream's first N lines.
// The stand-in is faithful and never sends a malformed event; this is how a
// test shows what the client does with one amid real traffic.
//
// Simplifications: GET only; a relayed watch always answers 200 and streams
// what the stand-in sends (the stand-in reports watch failures as ERROR
// events inside a 200 stream anyway); a watch the stand-in cuts off is cut
// off here too.
//
// Ownership: owns the server and one relay thread per watch; Stop() (or the
// destructor) joins them, which waits for the relayed watches to end: stop
// the stand-in (or let the watches time out) first.
// Thread-safety: TamperWithNextWatch() and the accessors from any thread.
#ifndef GCUSHARE_TESTS_KUBE_CLIENT_WATCH_TAMPERING_RELAY_H_
#define GCUSHARE_TESTS_KUBE_CLIENT_WATCH_TAMPERING_RELAY_H_

#include <httplib.h>

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "kube/testing/scripted_server.h"

namespace gcushare::kube_client_test {

class WatchTamperingRelay {
 public:
  explicit WatchTamperingRelay(int upstream_port);
  ~WatchTamperingRelay();  // Stop()s.
  WatchTamperingRelay(const WatchTamperingRelay&) = delete;
  WatchTamperingRelay& operator=(const WatchTamperingRelay&) = delete;

  // The next watch request gets `line` (sent as is, in its own chunk) right
  // after the first `after_lines` lines the stand-in sends it.
  void TamperWithNextWatch(std::string line, size_t after_lines) EXCLUDES(mu_);

  // Listens on a free port of 127.0.0.1; returns it.
  int Start();
  void Stop() EXCLUDES(mu_);

  // "http://127.0.0.1:<port>".
  std::string url() const { return server_.url(); }
  // Every request the relay received, in order.
  kube::testing::ScriptedServer& server() { return server_; }

 private:
  struct Tamper {
    std::string line;
    size_t after_lines = 0;
  };

  void RelayWatch(const httplib::Request& request, httplib::Response& response)
      EXCLUDES(mu_);
  // Pumps the stand-in's watch response into `feed`; runs on its own thread.
  void Pump(const std::string& target, std::optional<Tamper> tamper,
            std::shared_ptr<kube::testing::ChunkFeed> feed);

  const int upstream_port_;
  kube::testing::ScriptedServer server_;
  std::atomic<bool> stopping_{false};
  base::Mutex mu_;
  std::optional<Tamper> next_tamper_ GUARDED_BY(mu_);
  std::vector<std::thread> pumps_ GUARDED_BY(mu_);
};

}  // namespace gcushare::kube_client_test

#endif  // GCUSHARE_TESTS_KUBE_CLIENT_WATCH_TAMPERING_RELAY_H_
