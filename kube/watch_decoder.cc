#include "kube/watch_decoder.h"

#include <utility>

#include "json/bounded_parse.h"
#include "json/pruned_parse.h"
#include "kube/api_status.h"

namespace gcushare::kube {
namespace {

constexpr size_t kQuotedPrefix = 120;

Status Malformed(std::string_view why, std::string_view line) {
  // Built in one allocation: a stream of bad lines is all error paths.
  constexpr std::string_view kHead = "malformed watch event (";
  constexpr std::string_view kMiddle = "): ";
  constexpr std::string_view kEllipsis = "...";
  const std::string_view prefix = line.substr(0, kQuotedPrefix);
  std::string message;
  message.reserve(kHead.size() + why.size() + kMiddle.size() + prefix.size() +
                  kEllipsis.size());
  message.append(kHead).append(why).append(kMiddle).append(prefix);
  if (line.size() > kQuotedPrefix) message.append(kEllipsis);
  return DataLossError(std::move(message));
}

bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

// {"type": ..., "object": <`fields` of the object>}; all when `fields` is
// null.
json::FieldTree EventFields(const json::FieldTree* fields) {
  json::FieldTree event;
  if (fields == nullptr || fields->whole()) return event;
  event.Add({"type"}).AddTree({"object"}, *fields);
  return event;
}

// The event on `line`, decoding what `event_fields` (from EventFields())
// keeps.
StatusOr<WatchEvent> DecodeEvent(std::string_view line,
                                 const json::FieldTree& event_fields,
                                 json::PrunedParser& parser) {
  StatusOr<nlohmann::json> decoded =
      parser.Parse(line, event_fields, "watch event");
  if (!decoded.ok()) {
    // Parse refuses deep nesting before decoding (its own depth scan);
    // only a refused line is scanned again, to say which it was.
    if (json::JsonNestingDepth(line, json::kMaxJsonDepth) >
        json::kMaxJsonDepth) {
      return Malformed("nested deeper than " +
                           std::to_string(json::kMaxJsonDepth) + " levels",
                       line);
    }
    return Malformed("not valid JSON", line);
  }
  nlohmann::json& parsed = *decoded;
  if (!parsed.is_object()) return Malformed("not a JSON object", line);
  auto type = parsed.find("type");
  if (type == parsed.end() || !type->is_string()) {
    return Malformed("no \"type\"", line);
  }
  auto object = parsed.find("object");
  const std::string& name = type->get_ref<const std::string&>();
  if (name == "ERROR" && !event_fields.whole()) {
    // Rare: read the Status whole, whatever `event_fields` kept.
    return DecodeEvent(line, json::FieldTree(), parser);
  }
  if (name == "ERROR") {
    if (object == parsed.end() || !object->is_object()) {
      return Malformed("ERROR event without a Status object", line);
    }
    // An ERROR without a code is a server-side failure.
    return StatusFromApiStatus(*object, 500);
  }
  WatchEvent event;
  if (name == "ADDED") {
    event.type = WatchEventType::kAdded;
  } else if (name == "MODIFIED") {
    event.type = WatchEventType::kModified;
  } else if (name == "DELETED") {
    event.type = WatchEventType::kDeleted;
  } else if (name == "BOOKMARK") {
    event.type = WatchEventType::kBookmark;
  } else {
    return Malformed("unknown type \"" + name + "\"", line);
  }
  if (object == parsed.end() || !object->is_object()) {
    return Malformed("no \"object\"", line);
  }
  event.object = std::move(*object);
  return event;
}

}  // namespace

StatusOr<WatchEvent> ParseWatchEvent(std::string_view line,
                                     const json::FieldTree* fields) {
  json::PrunedParser parser;
  return ParseWatchEvent(line, fields, parser);
}

StatusOr<WatchEvent> ParseWatchEvent(std::string_view line,
                                     const json::FieldTree* fields,
                                     json::PrunedParser& parser) {
  return DecodeEvent(line, EventFields(fields), parser);
}

WatchDecoder::WatchDecoder(size_t max_line_bytes, const json::FieldTree* fields)
    : max_line_bytes_(max_line_bytes), event_fields_(EventFields(fields)) {}

Status WatchDecoder::HandleLine(std::string_view line,
                                const WatchCallback& callback) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (IsBlank(line)) return OkStatus();
  StatusOr<WatchEvent> event = DecodeEvent(line, event_fields_, parser_);
  if (!event.ok()) return event.status();
  ++events_;
  callback(std::move(event).value());
  return OkStatus();
}

Status WatchDecoder::Feed(std::string_view bytes,
                          const WatchCallback& callback) {
  if (!error_.ok()) return error_;
  while (!bytes.empty()) {
    const size_t newline = bytes.find('\n');
    if (newline == std::string_view::npos) {
      if (partial_.size() + bytes.size() > max_line_bytes_) {
        error_ = Malformed(
            "line longer than " + std::to_string(max_line_bytes_) + " bytes",
            partial_);
        return error_;
      }
      partial_.append(bytes);
      return OkStatus();
    }
    Status handled;
    if (partial_.empty()) {
      // The common case: a whole line inside this chunk, parsed in place.
      handled = HandleLine(bytes.substr(0, newline), callback);
    } else {
      partial_.append(bytes.substr(0, newline));
      handled = HandleLine(partial_, callback);
      partial_.clear();
    }
    if (!handled.ok()) {
      error_ = handled;
      return error_;
    }
    bytes.remove_prefix(newline + 1);
  }
  return OkStatus();
}

Status WatchDecoder::Finish() {
  if (!error_.ok()) return error_;
  if (!IsBlank(partial_)) {
    std::string prefix = partial_.substr(0, kQuotedPrefix);
    error_ = UnavailableError(
        "watch stream ended in the middle of an event: " + prefix +
        (partial_.size() > kQuotedPrefix ? "..." : ""));
    return error_;
  }
  return OkStatus();
}

}  // namespace gcushare::kube
