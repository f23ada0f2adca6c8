// Fuzzes the watch stream decoder: the input is the response body, fed in
// chunks whose sizes come from the body's own first bytes (a line may
// arrive split anywhere), then ParseWatchEvent on each whole line (one
// parser for all of them, as the decoder keeps one).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "json/pruned_parse.h"
#include "kube/watch_decoder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  const size_t chunk = size == 0 ? 1 : 1 + data[0] % 64;
  // A small line limit so that the over-long-line path is reached too.
  gcushare::kube::WatchDecoder decoder(/*max_line_bytes=*/4096);
  size_t events = 0;
  const auto count = [&events](const gcushare::kube::WatchEvent&) { ++events; };
  std::string_view rest = body;
  while (!rest.empty()) {
    const std::string_view piece = rest.substr(0, chunk);
    rest.remove_prefix(piece.size());
    if (!decoder.Feed(piece, count).ok()) break;
  }
  (void)decoder.Finish();
  if (decoder.events() != events) __builtin_trap();

  gcushare::json::PrunedParser parser;
  while (!body.empty()) {
    const size_t end = body.find('\n');
    (void)gcushare::kube::ParseWatchEvent(body.substr(0, end),
                                          /*fields=*/nullptr, parser);
    if (end == std::string_view::npos) break;
    body.remove_prefix(end + 1);
  }
  return 0;
}
