#include "nri-plugin/ttrpc/frame.h"

#include <gtest/gtest.h>

#include <string>

namespace gcushare::nri::ttrpc {
namespace {

TEST(TtrpcFrameTest, HeaderMatchesCapture) {
  // MSG 0 of the containerd capture: length 76, stream 1, request, flags 0.
  const std::string wire("\x00\x00\x00\x4c\x00\x00\x00\x01\x01\x00", 10);
  FrameHeader h = DecodeFrameHeader(wire.data());
  EXPECT_EQ(h.length, 76u);
  EXPECT_EQ(h.stream_id, 1u);
  EXPECT_EQ(h.type, 1);
  EXPECT_EQ(h.flags, 0);
  EXPECT_EQ(EncodeFrameHeader(h), wire);
}

TEST(TtrpcFrameTest, BigValuesAreBigEndian) {
  FrameHeader h{0x00401234u, 0xfffffffdu, 2, 0};
  std::string bytes = EncodeFrameHeader(h);
  EXPECT_EQ(bytes, std::string("\x00\x40\x12\x34\xff\xff\xff\xfd\x02\x00", 10));
  EXPECT_EQ(DecodeFrameHeader(bytes.data()), h);
}

TEST(TtrpcFrameTest, EmptyResponseIsJustAHeader) {
  auto frame = EncodeFrame(3, FrameType::kResponse, 0, "");
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(*frame,
            std::string("\x00\x00\x00\x00\x00\x00\x00\x03\x02\x00", 10));
}

TEST(TtrpcFrameTest, DecoderReassemblesAcrossArbitraryCuts) {
  std::string stream =
      *EncodeFrame(1, FrameType::kRequest, 0, "hello") +
      *EncodeFrame(3, FrameType::kRequest, 0, "") +
      *EncodeFrame(5, FrameType::kRequest, 0, std::string(10000, 'x'));
  for (size_t step :
       {size_t{1}, size_t{3}, size_t{7}, size_t{4096}, stream.size()}) {
    FrameDecoder d;
    std::vector<Frame> frames;
    for (size_t at = 0; at < stream.size(); at += step) {
      d.Append(std::string_view(stream).substr(at, step));
      while (true) {
        auto next = d.Next();
        ASSERT_TRUE(next.ok());
        if (!next->has_value()) break;
        frames.push_back(std::move(**next));
      }
    }
    ASSERT_EQ(frames.size(), 3u) << "step " << step;
    EXPECT_EQ(frames[0].data, "hello");
    EXPECT_EQ(frames[1].header.stream_id, 3u);
    EXPECT_EQ(frames[1].data, "");
    EXPECT_EQ(frames[2].data.size(), 10000u);
    EXPECT_EQ(d.buffered(), 0u);
  }
}

TEST(TtrpcFrameTest, OversizedFrameIsRejected) {
  FrameDecoder d;
  d.Append(EncodeFrameHeader({kMaxMessageLength + 1, 1, 1, 0}));
  auto next = d.Next();
  EXPECT_EQ(next.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(EncodeFrame(1, FrameType::kRequest, 0,
                        std::string(kMaxMessageLength + 1, 'a'))
                .status()
                .code(),
            StatusCode::kResourceExhausted);
  // Exactly the maximum is fine.
  EXPECT_TRUE(EncodeFrame(1, FrameType::kRequest, 0,
                          std::string(kMaxMessageLength, 'a'))
                  .ok());
}

TEST(TtrpcFrameTest, TruncatedFrameWaitsForMore) {
  FrameDecoder d;
  std::string frame = *EncodeFrame(1, FrameType::kRequest, 0, "abcdef");
  d.Append(frame.substr(0, 12));
  auto next = d.Next();
  ASSERT_TRUE(next.ok());
  EXPECT_FALSE(next->has_value());
  EXPECT_EQ(d.buffered(), 12u);
}

}  // namespace
}  // namespace gcushare::nri::ttrpc
