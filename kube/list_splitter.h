// Splits the text of a list answer ({"kind":..,"metadata":{..},"items":
// [{..},{..}]}) as it streams in: each element of the root's "items" array
// is handed over as soon as its closing brace arrives, so that a client
// reading a whole collection in one answer (a list from the watch cache:
// tens or hundreds of MB) holds one item's text at a time, never the
// answer. What is left, the root without the items ("items":[]), is kept
// for the list's metadata.
//
// Only the structure is checked (strings, escapes, brackets, the depth
// bound of json/bounded_parse.h, one root object, items that are objects);
// the handed-over texts are parsed by the caller.
//
// Failure: InvalidArgument naming the problem and the byte offset; after
// an error the splitter refuses everything. Thread-compatible.
#ifndef GCUSHARE_KUBE_LIST_SPLITTER_H_
#define GCUSHARE_KUBE_LIST_SPLITTER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "json/bounded_parse.h"
#include "status/status.h"

namespace gcushare::kube {

class ListSplitter {
 public:
  // Gets each item's text (valid until it returns), on the calling thread.
  using ItemCallback = std::function<void(std::string_view item)>;

  explicit ListSplitter(int max_depth = json::kMaxJsonDepth)
      : max_depth_(max_depth) {}

  // The next bytes of the answer; hands over the items they complete.
  Status Feed(std::string_view bytes, const ItemCallback& item);
  // After the last byte: the root without its items' elements. An answer
  // cut short (or empty) is an error.
  StatusOr<std::string> Finish();

  // Items handed over so far.
  uint64_t items() const { return items_; }

 private:
  Status Fail(const std::string& problem);
  // Scans bytes[*i, n) inside a string of the root (outside the items),
  // up to its end or the end of the bytes.
  void ScanRootString(std::string_view bytes, size_t* i);
  // Scans bytes[*i] between the items' elements; an element's opening
  // brace goes on into ScanItem().
  Status ScanBetweenItems(std::string_view bytes, size_t* i,
                          const ItemCallback& item);
  // Scans bytes[*i, n) in the root outside strings, up to and including
  // the next structural byte.
  Status ScanRoot(std::string_view bytes, size_t* i);
  // Scans bytes[*i, n) inside an item (the fast path: memchr for string
  // ends, no copy unless the item spans Feed() calls); returns at the end
  // of the bytes or after the item's closing brace (handed over).
  Status ScanItem(std::string_view bytes, size_t* i, const ItemCallback& item);

  const int max_depth_;
  Status error_;
  uint64_t offset_ = 0;  // Bytes fed so far.
  uint64_t items_ = 0;
  int depth_ = 0;            // Open brackets.
  bool in_string_ = false;   // Inside a string (of the root or an item).
  bool escaped_ = false;     // After a backslash inside a string.
  bool done_ = false;        // The root object closed.
  bool in_items_ = false;    // Inside the root's "items" array.
  bool in_item_ = false;     // Inside one of its elements.
  bool key_string_ = false;  // The string being read is a depth-1 key.
  bool expect_key_ = false;  // Depth 1, where a key may start.
  std::string key_;          // The depth-1 key last read.
  std::string rest_;         // The root without the items' elements.
  std::string item_;         // The element's start, when it spans calls.
  size_t item_start_ = 0;    // Where the element starts in this Feed().
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_LIST_SPLITTER_H_
