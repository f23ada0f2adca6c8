// What the readers of a pod's JSON text (unkept_pod_text.h,
// kept_pod_text.h) share: simdjson On-Demand helpers that read exactly as
// the usual decode reads, or say false. Header-only; thread-compatible.
#ifndef GCUSHARE_EXTENDER_POD_TEXT_FIELDS_H_
#define GCUSHARE_EXTENDER_POD_TEXT_FIELDS_H_

#include <simdjson.h>

#include <string>
#include <string_view>
#include <utility>

namespace gcushare::extender::pod_text {

namespace od = simdjson::ondemand;

inline constexpr std::string_view kOurPrefix = "enflame.com/";

// The keys an object level reads, each at most once (a key written twice
// is read by the usual path as its last value; a reader gives up).
class Once {
 public:
  bool First(int key) {
    const unsigned bit = 1u << key;
    if ((seen_ & bit) != 0) return false;
    seen_ |= bit;
    return true;
  }

 private:
  unsigned seen_ = 0;
};

inline bool ReadString(od::value value, std::string_view& out) {
  od::json_type type;
  if (value.type().get(type) != simdjson::SUCCESS ||
      type != od::json_type::string) {
    return false;
  }
  return value.get_string().get(out) == simdjson::SUCCESS;
}

// Iterates the object `value`, calling read(key, field value) for each
// field; false when it is not an object, is malformed, or read() is.
template <typename Read>
bool ForEachField(od::value value, Read&& read) {
  od::object object;
  if (value.get_object().get(object) != simdjson::SUCCESS) return false;
  for (auto field_result : object) {
    od::field field;
    std::string_view key;
    if (std::move(field_result).get(field) != simdjson::SUCCESS ||
        field.unescaped_key().get(key) != simdjson::SUCCESS) {
      return false;
    }
    if (!read(key, field.value())) return false;
  }
  return true;
}

// A list of objects as a pod's spec.containers: null (nothing), or an
// array whose elements each go to read(element); false for anything else.
template <typename Read>
bool ForEachElementOrNull(od::value value, Read&& read) {
  od::json_type type;
  if (value.type().get(type) != simdjson::SUCCESS) return false;
  if (type == od::json_type::null) {
    bool is_null = false;
    return value.is_null().get(is_null) == simdjson::SUCCESS && is_null;
  }
  od::array array;
  if (value.get_array().get(array) != simdjson::SUCCESS) return false;
  for (auto element_result : array) {
    od::value element;
    if (std::move(element_result).get(element) != simdjson::SUCCESS ||
        !read(element)) {
      return false;
    }
  }
  return true;
}

// One document at a time: the text copied into a padded buffer (simdjson
// reads past the end) and iterated; the parser's buffers are reused.
class DocumentReader {
 public:
  // The root value of `text`, or false when it does not start as JSON.
  // `document` must outlive the use of `root`.
  bool Start(std::string_view text, od::document& document, od::value& root) {
    buffer_.reserve(text.size() + simdjson::SIMDJSON_PADDING);
    buffer_.assign(text);
    const simdjson::padded_string_view padded(buffer_.data(), buffer_.size(),
                                              buffer_.capacity());
    return parser_.iterate(padded).get(document) == simdjson::SUCCESS &&
           document.get_value().get(root) == simdjson::SUCCESS;
  }
  // After the root was read: true when nothing follows it.
  static bool AtEnd(od::document& document) {
    const char* rest = nullptr;
    return document.current_location().get(rest) == simdjson::OUT_OF_BOUNDS;
  }

 private:
  od::parser parser_;
  std::string buffer_;
};

}  // namespace gcushare::extender::pod_text

#endif  // GCUSHARE_EXTENDER_POD_TEXT_FIELDS_H_
