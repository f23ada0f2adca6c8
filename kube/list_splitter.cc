#include "kube/list_splitter.h"

#include <array>
#include <cstring>
#include <utility>

namespace gcushare::kube {
namespace {

// Bytes that end a run outside strings (structure) and inside them.
constexpr std::array<bool, 256> MakeTable(std::string_view chars) {
  std::array<bool, 256> table{};
  for (char c : chars) table[static_cast<unsigned char>(c)] = true;
  return table;
}
constexpr std::array<bool, 256> kStructural = MakeTable("\"{}[],:");
constexpr std::array<bool, 256> kStringEnd = MakeTable("\"\\");
constexpr std::array<bool, 256> kItemStructural = MakeTable("\"{}[]");

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

}  // namespace

Status ListSplitter::Fail(const std::string& problem) {
  error_ = InvalidArgumentError("list answer: " + problem + " at byte " +
                                std::to_string(offset_));
  return error_;
}

Status ListSplitter::Feed(std::string_view bytes, const ItemCallback& item) {
  if (!error_.ok()) return error_;
  size_t i = 0;
  while (i < bytes.size()) {
    if (in_item_) {
      GCUSHARE_RETURN_IF_ERROR(ScanItem(bytes, &i, item));
    } else if (in_string_) {
      ScanRootString(bytes, &i);
    } else if (done_) {
      if (!IsSpace(bytes[i])) return Fail("data after the list");
      ++i;
      ++offset_;
    } else if (in_items_) {
      GCUSHARE_RETURN_IF_ERROR(ScanBetweenItems(bytes, &i, item));
    } else if (depth_ == 0) {
      const char c = bytes[i];
      if (c == '{') {
        depth_ = 1;
        expect_key_ = true;
        rest_.push_back(c);
      } else if (!IsSpace(c)) {
        return Fail("not a JSON object");
      }
      ++i;
      ++offset_;
    } else {
      GCUSHARE_RETURN_IF_ERROR(ScanRoot(bytes, &i));
    }
  }
  return OkStatus();
}

void ListSplitter::ScanRootString(std::string_view bytes, size_t* at) {
  const size_t n = bytes.size();
  size_t i = *at;
  if (escaped_) {
    escaped_ = false;
    rest_.push_back(bytes[i]);
    if (key_string_) key_.push_back(bytes[i]);
    *at = i + 1;
    ++offset_;
    return;
  }
  size_t j = i;
  while (j < n && !kStringEnd[static_cast<unsigned char>(bytes[j])]) ++j;
  rest_.append(bytes.data() + i, j - i);
  if (key_string_) key_.append(bytes.data() + i, j - i);
  offset_ += j - i;
  i = j;
  if (i < n) {
    const char c = bytes[i];
    rest_.push_back(c);
    if (c == '\\') {
      escaped_ = true;
      if (key_string_) key_.push_back(c);
    } else {
      in_string_ = false;
      key_string_ = false;
    }
    ++i;
    ++offset_;
  }
  *at = i;
}

Status ListSplitter::ScanBetweenItems(std::string_view bytes, size_t* at,
                                      const ItemCallback& item) {
  // Between the items' elements: only white space, commas, an element
  // (an object) or the array's end.
  const char c = bytes[*at];
  if (c == '{') {
    in_item_ = true;
    item_.clear();
    item_start_ = *at;
    ++depth_;
    if (depth_ > max_depth_) return Fail("nested too deep");
    ++*at;
    ++offset_;
    return ScanItem(bytes, at, item);
  }
  if (c == ']') {
    in_items_ = false;
    --depth_;
    rest_.push_back(c);
  } else if (c != ',' && !IsSpace(c)) {
    return Fail("an item that is not an object");
  }
  ++*at;
  ++offset_;
  return OkStatus();
}

Status ListSplitter::ScanRoot(std::string_view bytes, size_t* at) {
  const size_t n = bytes.size();
  size_t i = *at;
  while (i < n && !kStructural[static_cast<unsigned char>(bytes[i])]) ++i;
  rest_.append(bytes.data() + *at, i - *at);
  offset_ += i - *at;
  *at = i;
  if (i == n) return OkStatus();
  const char c = bytes[i];
  ++*at;
  ++offset_;
  switch (c) {
    case '"':
      in_string_ = true;
      if (depth_ == 1 && expect_key_) {
        key_string_ = true;
        expect_key_ = false;
        key_.clear();
      }
      break;
    case ',':
      if (depth_ == 1) expect_key_ = true;
      break;
    case ':':
      break;
    case '{':
    case '[':
      if (depth_ == 1 && c == '[' && key_ == "items") {
        in_items_ = true;
        key_.clear();  // Only the first "items" array is split.
      }
      ++depth_;
      if (depth_ > max_depth_) return Fail("nested too deep");
      break;
    default:  // '}' or ']'
      --depth_;
      if (depth_ == 0) done_ = true;
      break;
  }
  rest_.push_back(c);
  return OkStatus();
}

Status ListSplitter::ScanItem(std::string_view bytes, size_t* at,
                              const ItemCallback& item) {
  const char* const base = bytes.data();
  const size_t n = bytes.size();
  size_t i = *at;
  // The opening brace was consumed by Feed() (item_start_ points at it in
  // this call, item_ is empty), or the item continues from an earlier call
  // (item_ holds its start).
  while (i < n) {
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
        ++i;
        continue;
      }
      const char* quote =
          static_cast<const char*>(std::memchr(base + i, '"', n - i));
      const size_t stop = quote == nullptr ? n : quote - base;
      // The run of backslashes just before `stop` (within [i, stop)):
      // an odd run escapes what follows it.
      size_t run = 0;
      while (run < stop - i && base[stop - 1 - run] == '\\') ++run;
      if (quote == nullptr) {
        escaped_ = run % 2 == 1;
        i = n;
        break;
      }
      i = stop + 1;
      if (run % 2 == 0) in_string_ = false;
      continue;
    }
    while (i < n && !kItemStructural[static_cast<unsigned char>(base[i])]) {
      ++i;
    }
    if (i == n) break;
    const char c = base[i++];
    if (c == '"') {
      in_string_ = true;
    } else if (c == '{' || c == '[') {
      if (++depth_ > max_depth_) {
        offset_ += i - *at;
        *at = i;
        return Fail("nested too deep");
      }
    } else if (--depth_ == 2) {  // '}' or ']' closing the item.
      in_item_ = false;
      ++items_;
      if (item_.empty()) {
        item(bytes.substr(item_start_, i - item_start_));
      } else {
        item_.append(base, i);
        item(item_);
        item_.clear();
      }
      break;
    }
  }
  if (in_item_) {
    // The item continues in the next call: keep what it has so far.
    const size_t from = item_.empty() ? item_start_ : 0;
    item_.append(base + from, n - from);
    item_start_ = 0;
  }
  offset_ += i - *at;
  *at = i;
  return OkStatus();
}

StatusOr<std::string> ListSplitter::Finish() {
  if (!error_.ok()) return error_;
  if (!done_) return Fail("cut short");
  return std::move(rest_);
}

}  // namespace gcushare::kube
