// Splits a watch response body into events (docs/protocols.md 3.2): JSON
// objects {"type":...,"object":{...}}, each followed by "\n", arriving in
// HTTP chunks whose boundaries need not match the objects (a line may come
// one byte at a time). Bytes are buffered until a newline completes a line.
//
// Failure: Feed/Finish return the first problem and the decoder is then
// spent:
//   - a malformed line: kDataLoss "malformed watch event (<why>): <first
//     120 bytes of the line>";
//   - an ERROR event: the Status object's error, http_code() from its code
//     (410 Expired/Gone means: relist);
//   - a partial line left when the stream ends: kUnavailable.
// Thread-safety: not thread-safe; one decoder per stream.
#ifndef GCUSHARE_KUBE_WATCH_DECODER_H_
#define GCUSHARE_KUBE_WATCH_DECODER_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "json/field_tree.h"
#include "json/pruned_parse.h"
#include "kube/kube_client.h"
#include "status/status.h"

namespace gcushare::kube {

// One line (without its newline) as an event. `fields` (may be null: all)
// names what to decode of the event's object (json/field_tree.h); an ERROR
// event's Status is decoded whole.
StatusOr<WatchEvent> ParseWatchEvent(std::string_view line,
                                     const json::FieldTree* fields = nullptr);

// The same, decoding with the caller's `parser`, whose buffers are reused
// from one call to the next (a fresh one allocates and frees simdjson's
// buffers per line). One thread at a time per parser.
StatusOr<WatchEvent> ParseWatchEvent(std::string_view line,
                                     const json::FieldTree* fields,
                                     json::PrunedParser& parser);

class WatchDecoder {
 public:
  static constexpr size_t kDefaultMaxLineBytes = size_t{64} << 20;

  // `fields`: as for ParseWatchEvent (copied).
  explicit WatchDecoder(size_t max_line_bytes = kDefaultMaxLineBytes,
                        const json::FieldTree* fields = nullptr);

  // Consumes `bytes`, calling `callback` for each complete event.
  Status Feed(std::string_view bytes, const WatchCallback& callback);

  // The stream ended: OK unless a partial line is left over.
  Status Finish();

  // Events decoded so far.
  size_t events() const { return events_; }

 private:
  Status HandleLine(std::string_view line, const WatchCallback& callback);

  const size_t max_line_bytes_;
  const json::FieldTree event_fields_;  // What of an event is decoded.
  json::PrunedParser parser_;
  std::string partial_;  // Bytes of the line not yet ended by "\n".
  size_t events_ = 0;
  Status error_;  // Sticky after the first failure.
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_WATCH_DECODER_H_
