#include "json/pruned_parse.h"

#include <simdjson.h>

#include <cstring>
#include <string>
#include <utility>

namespace gcushare::json {
namespace {

namespace od = simdjson::ondemand;

// Why a decode stopped: a simdjson error or the depth bound.
// Also carries the end of the text (for RawText()).
struct Failure {
  simdjson::error_code code = simdjson::SUCCESS;
  bool too_deep = false;
  const char* text_end = nullptr;  // One past the text's last byte.
  bool failed() const { return too_deep || code != simdjson::SUCCESS; }
};

// The JSON string whose bytes after the opening quote start at `begin`, as
// a view into
// the text, when it holds no escape: then it reads as it is written, and
// unescaping it (a copy into the parser's string buffer) can be skipped.
// False when it holds a backslash (the caller unescapes it). The text's
// strings are closed (simdjson's stage 1 refuses one that is not).
bool RawText(const char* begin, const char* text_end, std::string_view& out) {
  const char* quote = static_cast<const char*>(
      std::memchr(begin, '"', static_cast<size_t>(text_end - begin)));
  if (quote == nullptr) return false;
  const size_t size = static_cast<size_t>(quote - begin);
  if (std::memchr(begin, '\\', size) != nullptr) return false;
  out = std::string_view(begin, size);
  return true;
}

// Sets `failure` and returns false when `code` is an error.
bool Ok(simdjson::error_code code, Failure& failure) {
  if (code == simdjson::SUCCESS) return true;
  failure.code = code;
  return false;
}

// One field of an object being walked: its key and the subtree of
// `tree` it maps to (null: keep all of it). Returns false on a decode
// error (set in `failure`); sets `kept` to false when `tree` drops the key
// (its value is then skipped unread).
template <typename FieldResult>
bool ReadField(FieldResult&& field_result, const FieldTree* tree,
               od::field& field, std::string_view& key, const FieldTree*& child,
               bool& kept, Failure& failure) {
  if (!Ok(std::forward<FieldResult>(field_result).get(field), failure)) {
    return false;
  }
  if (!RawText(field.key().raw(), failure.text_end, key) &&
      !Ok(field.unescaped_key().get(key), failure)) {
    return false;
  }
  child = nullptr;
  kept = true;
  if (tree != nullptr) {
    child = tree->Child(key);
    kept = child != nullptr;
    if (kept && child->whole()) child = nullptr;
  }
  return true;
}

// `value` as nlohmann, keeping what `tree` names (null: all). On-Demand
// skips the values not asked for without building or recursing; recursion
// here follows kept values only and stops at `max_depth`.
bool Convert(od::value value, const FieldTree* tree, int depth, int max_depth,
             nlohmann::json& out, Failure& failure) {
  od::json_type type;
  if (!Ok(value.type().get(type), failure)) return false;
  switch (type) {
    case od::json_type::object: {
      if (depth > max_depth) {
        failure.too_deep = true;
        return false;
      }
      out = nlohmann::json::object();
      od::object object;
      if (!Ok(value.get_object().get(object), failure)) return false;
      for (auto field_result : object) {
        od::field field;
        std::string_view key;
        const FieldTree* child;
        bool kept;
        if (!ReadField(std::move(field_result), tree, field, key, child, kept,
                       failure)) {
          return false;
        }
        if (!kept) continue;  // Skipped, never decoded.
        if (!Convert(field.value(), child, depth + 1, max_depth,
                     out[std::string(key)], failure)) {
          return false;
        }
      }
      return true;
    }
    case od::json_type::array: {
      if (depth > max_depth) {
        failure.too_deep = true;
        return false;
      }
      out = nlohmann::json::array();
      od::array array;
      if (!Ok(value.get_array().get(array), failure)) return false;
      for (auto element_result : array) {
        od::value element;
        if (!Ok(std::move(element_result).get(element), failure)) return false;
        out.push_back(nullptr);
        // Arrays are transparent: elements are filtered as the array is.
        if (!Convert(element, tree, depth + 1, max_depth, out.back(),
                     failure)) {
          return false;
        }
      }
      return true;
    }
    case od::json_type::string: {
      // Taken as written when it holds no escape (the token starts with
      // its quote), else unescaped.
      std::string_view text;
      const std::string_view token = value.raw_json_token();
      if (!token.empty() && RawText(token.data() + 1, failure.text_end, text)) {
        od::raw_json_string raw;  // Only steps past the string.
        if (!Ok(value.get_raw_json_string().get(raw), failure)) return false;
      } else if (!Ok(value.get_string().get(text), failure)) {
        return false;
      }
      out = std::string(text);
      return true;
    }
    case od::json_type::boolean: {
      bool flag = false;
      if (!Ok(value.get_bool().get(flag), failure)) return false;
      out = flag;
      return true;
    }
    case od::json_type::null: {
      bool is_null = false;
      if (!Ok(value.is_null().get(is_null), failure)) return false;
      if (!is_null) return Ok(simdjson::N_ATOM_ERROR, failure);
      out = nullptr;
      return true;
    }
    case od::json_type::number: {
      od::number number;
      if (!Ok(value.get_number().get(number), failure)) return false;
      switch (number.get_number_type()) {
        case od::number_type::signed_integer:
          out = number.get_int64();
          break;
        case od::number_type::unsigned_integer:
          out = number.get_uint64();
          break;
        default:
          out = number.get_double();
          break;
      }
      return true;
    }
  }
  return Ok(simdjson::INCORRECT_TYPE, failure);
}

// The root object `value` as Convert() would build it, except that each
// element of the array under `array_key` goes to `each` (with `out` as
// built so far) instead of into `out`.
bool ConvertStreaming(od::value value, const FieldTree* tree,
                      std::string_view array_key,
                      const PrunedParser::ElementCallback& each, int max_depth,
                      nlohmann::json& out, Failure& failure) {
  out = nlohmann::json::object();
  od::object object;
  if (!Ok(value.get_object().get(object), failure)) return false;
  for (auto field_result : object) {
    od::field field;
    std::string_view key;
    const FieldTree* child;
    bool kept;
    if (!ReadField(std::move(field_result), tree, field, key, child, kept,
                   failure)) {
      return false;
    }
    if (!kept) continue;  // Skipped, never decoded.
    od::value element_value = field.value();
    od::json_type type;
    if (key == array_key && Ok(element_value.type().get(type), failure) &&
        type == od::json_type::array) {
      od::array array;
      if (!Ok(element_value.get_array().get(array), failure)) return false;
      for (auto element_result : array) {
        od::value element;
        if (!Ok(std::move(element_result).get(element), failure)) return false;
        nlohmann::json decoded;
        // Depth as in Convert(): root 1, the array 2, its elements 3.
        if (!Convert(element, child, 3, max_depth, decoded, failure)) {
          return false;
        }
        each(std::move(decoded), out);
      }
      continue;
    }
    if (failure.failed()) return false;
    if (!Convert(element_value, child, 2, max_depth, out[std::string(key)],
                 failure)) {
      return false;
    }
  }
  return true;
}

Status TooDeep(std::string_view what, int max_depth) {
  return InvalidArgumentError(std::string(what) + ": nested deeper than " +
                              std::to_string(max_depth) + " levels");
}

}  // namespace

StatusOr<PreparedText> PreparedText::Make(std::string text,
                                          std::string_view what,
                                          int max_depth) {
  if (JsonNestingDepth(text, max_depth) > max_depth) {
    return TooDeep(what, max_depth);
  }
  text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  return PreparedText(std::move(text), max_depth);
}

struct PrunedParser::Impl {
  od::parser parser;
  std::string buffer;  // The text, padded as simdjson reads past the end.
};

PrunedParser::PrunedParser() : impl_(std::make_unique<Impl>()) {}
PrunedParser::~PrunedParser() = default;

StatusOr<nlohmann::json> PrunedParser::Parse(std::string_view text,
                                             const FieldTree& keep,
                                             std::string_view what,
                                             int max_depth) {
  // ParseEach() without a callback builds the whole root.
  return ParseEach(text, keep, {}, nullptr, what, max_depth);
}

StatusOr<nlohmann::json> PrunedParser::ParseDepthChecked(std::string_view text,
                                                         const FieldTree& keep,
                                                         std::string_view what,
                                                         int max_depth) {
  std::string& buffer = impl_->buffer;
  buffer.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  buffer.assign(text);
  return Walk(buffer, buffer.capacity(), keep, {}, nullptr, what, max_depth);
}

StatusOr<nlohmann::json> PrunedParser::ParseEach(
    std::string_view text, const FieldTree& keep, std::string_view array_key,
    const ElementCallback& each, std::string_view what, int max_depth) {
  // Deep nesting is refused where it is skipped too (as ParseJson does);
  // the scan is linear and cheap next to the decode.
  if (JsonNestingDepth(text, max_depth) > max_depth) {
    return TooDeep(what, max_depth);
  }
  std::string& buffer = impl_->buffer;
  buffer.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  buffer.assign(text);
  return Walk(buffer, buffer.capacity(), keep, array_key, each, what,
              max_depth);
}

StatusOr<nlohmann::json> PrunedParser::ParseEach(const PreparedText& text,
                                                 const FieldTree& keep,
                                                 std::string_view array_key,
                                                 const ElementCallback& each,
                                                 std::string_view what) {
  return Walk(text.text(), text.text().size() + simdjson::SIMDJSON_PADDING,
              keep, array_key, each, what, text.max_depth());
}

StatusOr<nlohmann::json> PrunedParser::Walk(
    std::string_view text, size_t capacity, const FieldTree& keep,
    std::string_view array_key, const ElementCallback& each,
    std::string_view what, int max_depth) {
  const simdjson::padded_string_view padded(text.data(), text.size(), capacity);
  Failure failure;
  failure.text_end = text.data() + text.size();
  nlohmann::json out;
  od::document document;
  od::value root;
  if (Ok(impl_->parser.iterate(padded).get(document), failure)) {
    // A scalar document has no od::value; read it as a one-element array.
    od::json_type type;
    if (Ok(document.type().get(type), failure)) {
      if (type == od::json_type::object || type == od::json_type::array) {
        const FieldTree* tree = keep.whole() ? nullptr : &keep;
        if (!Ok(document.get_value().get(root), failure)) {
          // Reported below.
        } else if (each && type == od::json_type::object) {
          ConvertStreaming(root, tree, array_key, each, max_depth, out,
                           failure);
        } else {
          Convert(root, tree, 1, max_depth, out, failure);
        }
      } else {
        StatusOr<nlohmann::json> scalar = ParseJson(text, what, max_depth);
        if (!scalar.ok()) {
          return InvalidArgumentError(std::string(what) + ": malformed JSON");
        }
        return scalar;
      }
    }
    const char* rest = nullptr;
    if (!failure.failed() &&
        document.current_location().get(rest) != simdjson::OUT_OF_BOUNDS) {
      failure.code = simdjson::TRAILING_CONTENT;
    }
  }
  if (failure.too_deep) return TooDeep(what, max_depth);
  if (failure.failed()) {
    return InvalidArgumentError(std::string(what) + ": malformed JSON (" +
                                simdjson::error_message(failure.code) + ")");
  }
  return out;
}

StatusOr<nlohmann::json> ParsePruned(std::string_view text,
                                     const FieldTree& keep,
                                     std::string_view what, int max_depth) {
  PrunedParser parser;
  return parser.Parse(text, keep, what, max_depth);
}

}  // namespace gcushare::json
