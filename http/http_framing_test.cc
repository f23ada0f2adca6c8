#include "http/http_framing.h"

#include <gtest/gtest.h>

namespace gcushare::http {
namespace {

using State = HeadParse::State;

TEST(HttpFramingTest, WholeHeadWithBodyLength) {
  const std::string head =
      "POST /gcushare-scheduler/filter?x=1 HTTP/1.1\r\nHost: a\r\n"
      "Content-Length: 7\r\nExpect: 100-continue\r\n\r\n";
  HeadParse p = ParseHead(head + "{\"a\":1}", {});
  ASSERT_EQ(p.state, State::kDone) << p.message;
  EXPECT_EQ(p.request.method, "POST");
  EXPECT_EQ(p.request.path, "/gcushare-scheduler/filter");
  EXPECT_EQ(p.request.headers.at("host"), "a");
  EXPECT_EQ(p.head_bytes, head.size());
  EXPECT_EQ(p.body_bytes, 7u);
  EXPECT_TRUE(p.request.keep_alive);
  EXPECT_TRUE(p.request.expect_continue);

  HeadParse get = ParseHead("GET / HTTP/1.0\r\n\r\n", {});
  ASSERT_EQ(get.state, State::kDone);
  EXPECT_FALSE(get.request.keep_alive);
  EXPECT_EQ(get.body_bytes, 0u);
  EXPECT_FALSE(ParseHead("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", {})
                   .request.keep_alive);
}

TEST(HttpFramingTest, IncompleteUntilTheBlankLine) {
  EXPECT_EQ(ParseHead("", {}).state, State::kIncomplete);
  EXPECT_EQ(ParseHead("POST /f HTTP/1.1\r\nContent-Le", {}).state,
            State::kIncomplete);
  EXPECT_EQ(ParseHead("GET / HTTP/1.1\r\n\r", {}).state, State::kIncomplete);
}

TEST(HttpFramingTest, RefusalsNameTheProblem) {
  FramingLimits limits;
  limits.max_head_bytes = 100;
  limits.max_body_bytes = 1000;
  struct Case {
    std::string text;
    int status;
    const char* message;
  };
  const Case cases[] = {
      {std::string(101, 'a'), 431, "request head over 100 bytes"},
      {"GET /" + std::string(200, 'a') + " HTTP/1.1\r\n\r\n", 431, "over 100"},
      {"GET\r\n\r\n", 400, "malformed request line"},
      {"GET x HTTP/1.1\r\n\r\n", 400, "malformed request line"},
      {"GET / HTTP/2\r\n\r\n", 505, "HTTP/1.0 and HTTP/1.1"},
      {"GET / HTTP/1.1\r\nno colon\r\n\r\n", 400, "malformed header"},
      {"POST / HTTP/1.1\r\n\r\n", 411, "POST needs a Content-Length"},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 411, "chunked"},
      {"POST / HTTP/1.1\r\nContent-Length: 1001\r\n\r\n", 413,
       "request body over 1000 bytes"},
      {"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400,
       "malformed Content-Length"},
      {"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n", 400,
       "more than one Content-Length"},
  };
  for (const Case& c : cases) {
    HeadParse p = ParseHead(c.text, limits);
    ASSERT_EQ(p.state, State::kRefused) << c.text;
    EXPECT_EQ(p.status, c.status) << c.text;
    EXPECT_NE(p.message.find(c.message), std::string::npos) << p.message;
  }
}

}  // namespace
}  // namespace gcushare::http
