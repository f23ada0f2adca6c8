#include "tests/peers/apiserver/watch_handler.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tests/peers/apiserver/object_meta.h"

namespace gcushare::apiserver {
namespace {

using Clock = std::chrono::steady_clock;

// How often an idle stream checks that its client is still there.
constexpr auto kLivenessInterval = std::chrono::seconds(1);

// Writes `line` as one chunk, or as chunks of at most `chunk_bytes` (> 0);
// httplib sends each chunk to the socket at once. False when the client is
// gone.
bool WriteLine(httplib::DataSink& sink, const std::string& line,
               size_t chunk_bytes) {
  if (chunk_bytes == 0) return sink.write(line.data(), line.size());
  for (size_t at = 0; at < line.size(); at += chunk_bytes) {
    if (!sink.write(line.data() + at,
                    std::min(chunk_bytes, line.size() - at))) {
      return false;
    }
  }
  return true;
}

// A stream of exactly one ERROR event.
void WriteErrorEvent(httplib::Response& res, const ApiStatus& status,
                     size_t chunk_bytes) {
  auto line = std::make_shared<std::string>(
      EncodeWatchEvent("ERROR", DumpJson(status.ToJson())));
  res.status = 200;
  res.set_header("Cache-Control", "no-cache, private");
  res.set_chunked_content_provider(
      "application/json", [line, chunk_bytes](size_t, httplib::DataSink& sink) {
        WriteLine(sink, *line, chunk_bytes);
        sink.done();
        return true;
      });
}

// The state of one open watch response, shared by the provider calls.
struct WatchState {
  ObjectStore* store = nullptr;
  std::shared_ptr<WatchStream> stream;
  std::optional<Clock::time_point> deadline;
  bool bookmarks = false;
  std::chrono::milliseconds bookmark_interval{1000};
  Clock::time_point next_bookmark;
  size_t chunk_bytes = 0;  // See HandlerContext::watch_chunk_bytes.
};

// One call of httplib's content provider: blocks until there is something to
// write or the stream should end. Returns false to drop the connection.
bool Pump(WatchState& w, httplib::DataSink& sink) {
  for (;;) {
    Clock::time_point now = Clock::now();
    if (w.deadline && now >= *w.deadline) {
      sink.done();
      return true;
    }
    Clock::time_point wake = now + kLivenessInterval;
    if (w.deadline) wake = std::min(wake, *w.deadline);
    if (w.bookmarks) wake = std::min(wake, w.next_bookmark);
    std::vector<std::string> lines;
    WatchStream::PopResult r = w.stream->PopAll(wake, &lines);
    if (r == WatchStream::PopResult::kLines) {
      for (const std::string& line : lines) {
        if (!WriteLine(sink, line, w.chunk_bytes)) return false;
      }
      return true;
    }
    if (r == WatchStream::PopResult::kClosed) {
      sink.done();
      return true;
    }
    now = Clock::now();
    if (w.bookmarks && now >= w.next_bookmark) {
      w.store->OfferBookmark(w.stream.get());
      w.next_bookmark = now + w.bookmark_interval;
      continue;
    }
    if (!sink.is_writable()) return false;  // The client went away.
  }
}

}  // namespace

void WatchHandler::Watch(const ApiPath& path, const ListOptions& options,
                         httplib::Response& res) {
  const ResourceKind& kind = *path.kind;
  ObjectStore& store = *ctx_.store;
  ObjectStore::WatchSpec spec;
  spec.resource = kind.resource;
  spec.matches = MakeObjectFilter(options, kind, path.ns, path.name);
  spec.bookmark_template = Json::object();
  spec.bookmark_template["kind"] = kind.kind;
  spec.bookmark_template["apiVersion"] = kind.api_version();
  for (auto it = kind.zero_value.begin(); it != kind.zero_value.end(); ++it) {
    spec.bookmark_template[it.key()] = it.value();
  }
  const std::string& rv_text = options.resource_version;
  bool from_start = rv_text.empty() || rv_text == "0";
  bool initial = options.send_initial_events.value_or(from_start);
  if (initial) {
    spec.start = ObjectStore::WatchSpec::Start::kInitialState;
    spec.initial_events_end = options.send_initial_events.value_or(false) &&
                              options.allow_watch_bookmarks;
  } else if (from_start) {
    spec.start = ObjectStore::WatchSpec::Start::kNow;
  } else {
    int64_t rv = ParseResourceVersion(rv_text);
    if (rv < 0) {
      WriteErrorEvent(res,
                      BadRequestStatus("invalid resource version: " + rv_text),
                      ctx_.watch_chunk_bytes);
      return;
    }
    int64_t current = store.CurrentRv();
    if (rv > current) {
      WriteErrorEvent(
          res, TooLargeResourceVersionStatus(rv_text, std::to_string(current)),
          ctx_.watch_chunk_bytes);
      return;
    }
    spec.start = ObjectStore::WatchSpec::Start::kAfter;
    spec.rv = rv;
  }
  auto stream = store.Watch(spec);
  if (!stream.ok()) {
    if (stream.status().code() == StatusCode::kOutOfRange) {
      WriteErrorEvent(res, ExpiredStatus(stream.status().message()),
                      ctx_.watch_chunk_bytes);
    } else {
      WriteErrorEvent(res,
                      ApiStatus::Failure(503, "ServiceUnavailable",
                                         stream.status().message()),
                      ctx_.watch_chunk_bytes);
    }
    return;
  }
  auto state = std::make_shared<WatchState>();
  state->store = &store;
  state->stream = *stream;
  if (options.timeout_seconds && *options.timeout_seconds > 0) {
    state->deadline =
        Clock::now() + std::chrono::seconds(*options.timeout_seconds);
  }
  state->bookmarks = options.allow_watch_bookmarks;
  state->bookmark_interval = ctx_.bookmark_interval;
  state->next_bookmark = Clock::now() + ctx_.bookmark_interval;
  state->chunk_bytes = ctx_.watch_chunk_bytes;
  {
    base::MutexLock lock(open_->mu);
    ++open_->count;
  }
  res.status = 200;
  res.set_header("Cache-Control", "no-cache, private");
  res.set_chunked_content_provider(
      "application/json",
      [state](size_t, httplib::DataSink& sink) { return Pump(*state, sink); },
      [state, open = open_](bool) {
        state->store->Unwatch(state->stream.get());
        {
          base::MutexLock lock(open->mu);
          --open->count;
        }
        open->cv.NotifyAll();
      });
}

bool WatchHandler::WaitForStreamsToEnd(std::chrono::milliseconds timeout) {
  base::MutexLock lock(open_->mu);
  return open_->cv.WaitFor(lock, timeout, [this]() REQUIRES(open_->mu) {
    return open_->count == 0;
  });
}

}  // namespace gcushare::apiserver
