#include "kube/watch_decoder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kube/json_fields.h"
#include "kube/testing/api_objects.h"

namespace gcushare::kube {
namespace {

using ::gcushare::kube::testing::BookmarkLine;
using ::gcushare::kube::testing::FailureStatus;
using ::gcushare::kube::testing::Pod;
using ::gcushare::kube::testing::WatchLine;

class Collector {
 public:
  WatchCallback callback() {
    return [this](WatchEvent event) { events.push_back(std::move(event)); };
  }
  std::vector<WatchEvent> events;
};

TEST(WatchDecoderTest, SplitsLinesAcrossArbitraryChunks) {
  const std::string stream = WatchLine("ADDED", Pod("ns", "a", "10")) +
                             WatchLine("MODIFIED", Pod("ns", "a", "11")) +
                             BookmarkLine("12") +
                             WatchLine("DELETED", Pod("ns", "a", "13"));
  // Every chunk size from 1 byte to the whole stream.
  for (size_t chunk = 1; chunk <= stream.size();
       chunk += (chunk < 8 ? 1 : 37)) {
    Collector collector;
    WatchDecoder decoder;
    for (size_t offset = 0; offset < stream.size(); offset += chunk) {
      ASSERT_TRUE(decoder
                      .Feed(std::string_view(stream).substr(offset, chunk),
                            collector.callback())
                      .ok());
    }
    ASSERT_TRUE(decoder.Finish().ok());
    ASSERT_EQ(collector.events.size(), 4u) << "chunk " << chunk;
    EXPECT_EQ(collector.events[0].type, WatchEventType::kAdded);
    EXPECT_EQ(collector.events[1].type, WatchEventType::kModified);
    EXPECT_EQ(collector.events[2].type, WatchEventType::kBookmark);
    EXPECT_EQ(collector.events[3].type, WatchEventType::kDeleted);
    EXPECT_EQ(ResourceVersionOf(collector.events[1].object), "11");
    EXPECT_EQ(ResourceVersionOf(collector.events[2].object), "12");
    EXPECT_EQ(NameOf(collector.events[3].object), "a");
  }
}

TEST(WatchDecoderTest, SkipsBlankLinesAndCarriageReturns) {
  Collector collector;
  WatchDecoder decoder;
  std::string line = WatchLine("ADDED", Pod("ns", "a", "1"));
  line.insert(line.size() - 1, "\r");
  ASSERT_TRUE(decoder.Feed("\n\n" + line + "\n", collector.callback()).ok());
  ASSERT_TRUE(decoder.Finish().ok());
  EXPECT_EQ(collector.events.size(), 1u);
}

TEST(WatchDecoderTest, ErrorEventCarriesTheStatusCode) {
  Collector collector;
  WatchDecoder decoder;
  const std::string stream =
      WatchLine("ADDED", Pod("ns", "a", "1")) +
      WatchLine("ERROR", FailureStatus(410, "Expired",
                                       "too old resource version: 1 (50)")) +
      WatchLine("ADDED", Pod("ns", "b", "2"));
  Status status = decoder.Feed(stream, collector.callback());
  EXPECT_EQ(status.http_code(), 410);
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(status.message(), "Expired: too old resource version: 1 (50)");
  // Events before the error were delivered, none after.
  EXPECT_EQ(collector.events.size(), 1u);
  // The decoder is spent.
  EXPECT_EQ(
      decoder
          .Feed(WatchLine("ADDED", Pod("ns", "c", "3")), collector.callback())
          .http_code(),
      410);
}

TEST(WatchDecoderTest, FieldsDecodeOnlyTheNamedPartsOfTheObject) {
  json::FieldTree fields;
  fields.Add({"metadata", "name"}).Add({"metadata", "resourceVersion"});
  Collector collector;
  WatchDecoder decoder(WatchDecoder::kDefaultMaxLineBytes, &fields);
  nlohmann::json pod = Pod("ns", "a", "10");
  pod["spec"] = {{"nodeName", "n1"}};
  const std::string stream =
      WatchLine("MODIFIED", pod) + BookmarkLine("11") +
      WatchLine("ERROR", FailureStatus(410, "Expired",
                                       "too old resource version: 1 (50)"));
  Status status = decoder.Feed(stream, collector.callback());
  ASSERT_EQ(collector.events.size(), 2u);
  EXPECT_EQ(collector.events[0].type, WatchEventType::kModified);
  EXPECT_EQ(collector.events[0].object,
            (nlohmann::json{
                {"metadata", {{"name", "a"}, {"resourceVersion", "10"}}}}));
  EXPECT_EQ(ResourceVersionOf(collector.events[1].object), "11");
  // The ERROR event's Status is read whole, whatever the fields name.
  EXPECT_EQ(status.http_code(), 410);
  EXPECT_EQ(status.message(), "Expired: too old resource version: 1 (50)");
}

TEST(WatchDecoderTest, MalformedLinesAreDataLossWithAPrefix) {
  struct Case {
    std::string line;
    std::string why;
  };
  const std::vector<Case> cases = {
      {"{\"type\":\"ADDED\",\"object\":{\"metadata\":", "not valid JSON"},
      {"[1,2,3]", "not a JSON object"},
      {"{\"object\":{}}", "no \"type\""},
      {"{\"type\":\"SURPRISE\",\"object\":{}}", "unknown type \"SURPRISE\""},
      {"{\"type\":\"ADDED\"}", "no \"object\""},
      {"{\"type\":\"ERROR\",\"object\":\"boom\"}",
       "ERROR event without a Status object"},
      // 400 KB of nesting used to overflow the stack.
      {"{\"type\":\"ADDED\",\"object\":{\"x\":" + std::string(200000, '[') +
           std::string(200000, ']') + "}}",
       "nested deeper than 100 levels"},
  };
  for (const Case& c : cases) {
    Collector collector;
    WatchDecoder decoder;
    Status status = decoder.Feed(c.line + "\n", collector.callback());
    EXPECT_EQ(status.code(), StatusCode::kDataLoss) << c.line;
    EXPECT_NE(status.message().find(c.why), std::string::npos)
        << status.message();
    EXPECT_NE(status.message().find(c.line.substr(0, 10)), std::string::npos)
        << status.message();
  }
}

TEST(ParseWatchEventTest, OneParserDecodesLineAfterLine) {
  // The parser's buffers are reused: a short line after a long one, and a
  // good line after a bad one, decode as with a fresh parser.
  const std::string long_line =
      WatchLine("ADDED", Pod("ns", std::string(3000, 'a'), "7"));
  const std::string short_line = WatchLine("DELETED", Pod("ns", "b", "8"));
  json::PrunedParser parser;
  StatusOr<WatchEvent> first =
      ParseWatchEvent(long_line, /*fields=*/nullptr, parser);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(NameOf(first->object), std::string(3000, 'a'));
  StatusOr<WatchEvent> second =
      ParseWatchEvent(short_line, /*fields=*/nullptr, parser);
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(second->type, WatchEventType::kDeleted);
  EXPECT_EQ(NameOf(second->object), "b");
  EXPECT_EQ(ResourceVersionOf(second->object), "8");
  StatusOr<WatchEvent> bad =
      ParseWatchEvent(short_line.substr(0, 20), /*fields=*/nullptr, parser);
  EXPECT_EQ(bad.status().code(), StatusCode::kDataLoss);
  StatusOr<WatchEvent> again =
      ParseWatchEvent(short_line, /*fields=*/nullptr, parser);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->object, second->object);
}

TEST(WatchDecoderTest, LongMalformedLineIsQuotedShort) {
  Collector collector;
  WatchDecoder decoder;
  const std::string junk(5000, 'x');
  Status status = decoder.Feed(junk + "\n", collector.callback());
  EXPECT_EQ(status.code(), StatusCode::kDataLoss);
  EXPECT_LT(status.message().size(), 300u);
}

TEST(WatchDecoderTest, MalformedMessageQuotesTheLineStart) {
  for (size_t length : {size_t{5}, size_t{120}, size_t{121}, size_t{5000}}) {
    Collector collector;
    WatchDecoder decoder;
    const std::string junk(length, 'x');
    Status status = decoder.Feed(junk + "\n", collector.callback());
    EXPECT_EQ(status.message(),
              "malformed watch event (not valid JSON): " + junk.substr(0, 120) +
                  (length > 120 ? "..." : ""));
  }
}

TEST(WatchDecoderTest, OverlongLineIsRejected) {
  Collector collector;
  WatchDecoder decoder(/*max_line_bytes=*/100);
  Status status = decoder.Feed(std::string(150, '{'), collector.callback());
  EXPECT_EQ(status.code(), StatusCode::kDataLoss);
  EXPECT_NE(status.message().find("longer than 100 bytes"), std::string::npos);
}

TEST(WatchDecoderTest, PartialLineAtEndIsUnavailable) {
  Collector collector;
  WatchDecoder decoder;
  const std::string line = WatchLine("ADDED", Pod("ns", "a", "1"));
  ASSERT_TRUE(
      decoder.Feed(line.substr(0, line.size() / 2), collector.callback()).ok());
  EXPECT_EQ(decoder.Finish().code(), StatusCode::kUnavailable);
  EXPECT_TRUE(collector.events.empty());
}

}  // namespace
}  // namespace gcushare::kube
