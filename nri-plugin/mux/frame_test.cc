#include "nri-plugin/mux/frame.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gcushare::nri::mux {
namespace {

std::vector<MuxFrame> DecodeAll(const std::string& bytes, size_t step) {
  MuxDecoder d;
  std::vector<MuxFrame> out;
  for (size_t at = 0; at < bytes.size(); at += step) {
    d.Append(std::string_view(bytes).substr(at, step));
    while (true) {
      auto next = d.Next();
      EXPECT_TRUE(next.ok()) << next.status();
      if (!next.ok() || !next->has_value()) break;
      out.push_back(std::move(**next));
    }
  }
  return out;
}

TEST(MuxFrameTest, HeaderMatchesCapture) {
  // The first plugin->runtime frame of the capture: conn 2, 86 bytes.
  std::string frames =
      EncodeMuxFrames(kRuntimeServiceConn, std::string(86, 'p'));
  EXPECT_EQ(frames.substr(0, 8), std::string("\0\0\0\x02\0\0\0\x56", 8));
  EXPECT_EQ(frames.size(), 94u);
}

TEST(MuxFrameTest, LargeWritesAreSplitInto4KiBChunks) {
  std::string payload(10109, 's');  // The capture's Synchronize frame.
  std::string frames = EncodeMuxFrames(kPluginServiceConn, payload);
  std::vector<MuxFrame> decoded = DecodeAll(frames, frames.size());
  ASSERT_EQ(decoded.size(), 3u);
  EXPECT_EQ(decoded[0].payload.size(), 4096u);
  EXPECT_EQ(decoded[1].payload.size(), 4096u);
  EXPECT_EQ(decoded[2].payload.size(), 10109u - 8192u);
  for (const MuxFrame& f : decoded) EXPECT_EQ(f.conn_id, kPluginServiceConn);
  EXPECT_EQ(EncodeMuxFrames(1, ""), "");
}

TEST(MuxFrameTest, ShortReadsAndLoneHeaders) {
  std::string bytes = EncodeMuxFrames(1, "abc") + EncodeMuxFrames(2, "defgh");
  for (size_t step : {size_t{1}, size_t{2}, size_t{8}, size_t{11}}) {
    std::vector<MuxFrame> decoded = DecodeAll(bytes, step);
    ASSERT_EQ(decoded.size(), 2u);
    EXPECT_EQ(decoded[0].conn_id, 1u);
    EXPECT_EQ(decoded[0].payload, "abc");
    EXPECT_EQ(decoded[1].conn_id, 2u);
    EXPECT_EQ(decoded[1].payload, "defgh");
  }
}

TEST(MuxFrameTest, OversizedFrameIsRejected) {
  MuxDecoder d(100);
  d.Append(std::string("\0\0\0\x01\0\0\0\x65", 8));  // 101 bytes
  EXPECT_EQ(d.Next().status().code(), StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace gcushare::nri::mux
