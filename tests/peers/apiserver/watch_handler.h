// GET <collection>?watch=true (or the legacy /api/v1/watch/... paths): a
// chunked HTTP 200 response, Content-Type application/json, carrying one
// watch event per line: {"type":"ADDED|MODIFIED|DELETED|BOOKMARK|ERROR",
// "object":{...}}.
//
// Start: no resourceVersion or "0" sends the current matching objects as
// ADDED first (sendInitialEvents=true does too, then a BOOKMARK annotated
// k8s.io/initial-events-end); an RV inside the history window replays the
// events after it; an older RV yields one ERROR event with the 410 Expired
// Status "too old resource version: <rv> (<oldest usable>)" and the stream
// ends; a future RV yields one ERROR event with the 504 "Too large resource
// version" Status (the real server first waits up to 3 s). BOOKMARKs go only
// to watches with allowWatchBookmarks=true, every bookmark interval while the
// stream is idle. timeoutSeconds ends the stream cleanly. Without it the
// stream lasts until the client leaves or the server stops (the real server
// ends it after a random 30-60 minutes).
//
// Each line is normally one HTTP chunk; with HandlerContext::
// watch_chunk_bytes = N (a test knob) it is split into N-byte chunks, each
// sent at once, so that clients meet lines cut at every position.
//
// Each open watch occupies one HTTP worker thread (see ApiServer's thread
// count). A closed client is noticed at the next write or within a second.
//
// Thread-safety: thread-safe.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_WATCH_HANDLER_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_WATCH_HANDLER_H_

#include <httplib.h>

#include <chrono>
#include <memory>

#include "base/mutex.h"
#include "tests/peers/apiserver/handler_context.h"
#include "tests/peers/apiserver/list_options.h"
#include "tests/peers/apiserver/request_path.h"

namespace gcushare::apiserver {

class WatchHandler {
 public:
  explicit WatchHandler(HandlerContext ctx)
      : ctx_(ctx), open_(std::make_shared<OpenStreams>()) {}

  void Watch(const ApiPath& path, const ListOptions& options,
             httplib::Response& res);

  // After the store closed every stream (shutdown): waits until each open
  // watch response has written its last chunk, or `timeout` passes, so that
  // stopping the HTTP server does not cut streams short. True when all ended.
  bool WaitForStreamsToEnd(std::chrono::milliseconds timeout);

 private:
  // The number of watch responses still being written.
  struct OpenStreams {
    base::Mutex mu;
    base::CondVar cv;
    int count GUARDED_BY(mu) = 0;
  };

  HandlerContext ctx_;
  std::shared_ptr<OpenStreams> open_;
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_WATCH_HANDLER_H_
