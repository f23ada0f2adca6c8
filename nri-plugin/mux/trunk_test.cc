#include "nri-plugin/mux/trunk.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>

namespace gcushare::nri::mux {
namespace {

using std::chrono::seconds;

// Collects what arrives on one connection id.
class Collector : public ByteReceiver {
 public:
  Status OnBytes(std::string_view bytes) override {
    std::lock_guard<std::mutex> lock(mu_);
    data_.append(bytes);
    cv_.notify_all();
    return fail_ ? DataLossError("corrupt") : OkStatus();
  }
  bool WaitFor(size_t size) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, seconds(10),
                        [&] { return data_.size() >= size; });
  }
  std::string data() {
    std::lock_guard<std::mutex> lock(mu_);
    return data_;
  }
  bool fail_ = false;

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::string data_;
};

struct Pair {
  UniqueFd a, b;
  Pair() {
    int fds[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    a.Reset(fds[0]);
    b.Reset(fds[1]);
  }
};

void WriteRaw(int fd, const std::string& bytes) {
  ASSERT_EQ(::write(fd, bytes.data(), bytes.size()),
            static_cast<ssize_t>(bytes.size()));
}

TEST(TrunkTest, DeliversPerConnectionStreams) {
  Pair p;
  Trunk left(std::move(p.a)), right(std::move(p.b));
  Collector one, two;
  right.Attach(1, &one);
  right.Attach(2, &two);
  left.Start(nullptr);
  right.Start(nullptr);
  std::string big(9000, 'b');
  ASSERT_TRUE(left.Sink(1)->Write("hello ").ok());
  ASSERT_TRUE(left.Write(2, big).ok());
  ASSERT_TRUE(left.Sink(1)->Write("world").ok());
  ASSERT_TRUE(one.WaitFor(11));
  ASSERT_TRUE(two.WaitFor(9000));
  EXPECT_EQ(one.data(), "hello world");
  EXPECT_EQ(two.data(), big);
  left.Close();
  EXPECT_TRUE(right.WaitClosed(seconds(10)));
  EXPECT_EQ(right.close_reason().code(), StatusCode::kUnavailable);
  EXPECT_FALSE(left.Write(1, "x").ok());
}

TEST(TrunkTest, UnknownConnectionClosesByDefault) {
  Pair p;
  Trunk trunk(std::move(p.a));
  Collector one;
  trunk.Attach(1, &one);
  Status seen;
  trunk.Start([&](const Status& s) { seen = s; });
  WriteRaw(p.b.get(), EncodeMuxFrames(7, "zzz"));
  ASSERT_TRUE(trunk.WaitClosed(seconds(10)));
  trunk.Join();
  EXPECT_EQ(seen.code(), StatusCode::kDataLoss);
  EXPECT_NE(seen.message().find("unknown connection id 7"), std::string::npos);
  // The peer sees the connection end.
  char c;
  EXPECT_EQ(::read(p.b.get(), &c, 1), 0);
}

TEST(TrunkTest, UnknownConnectionCanBeDroppedLikeUpstream) {
  Pair p;
  TrunkOptions options;
  options.close_on_unknown_conn = false;
  Trunk trunk(std::move(p.a), options);
  Collector one;
  trunk.Attach(1, &one);
  trunk.Start(nullptr);
  WriteRaw(p.b.get(), EncodeMuxFrames(7, "zzz") + EncodeMuxFrames(1, "ok"));
  ASSERT_TRUE(one.WaitFor(2));
  EXPECT_EQ(one.data(), "ok");
  EXPECT_FALSE(trunk.closed());
}

TEST(TrunkTest, OversizedFrameCloses) {
  Pair p;
  TrunkOptions options;
  options.max_read_payload = 1024;
  Trunk trunk(std::move(p.a), options);
  Collector one;
  trunk.Attach(1, &one);
  trunk.Start(nullptr);
  WriteRaw(p.b.get(), std::string("\0\0\0\x01\x7f\0\0\0", 8));
  ASSERT_TRUE(trunk.WaitClosed(seconds(10)));
  EXPECT_EQ(trunk.close_reason().code(), StatusCode::kResourceExhausted);
}

TEST(TrunkTest, PeerClosingMidFrameIsDataLoss) {
  Pair p;
  Trunk trunk(std::move(p.a));
  Collector one;
  trunk.Attach(1, &one);
  trunk.Start(nullptr);
  WriteRaw(p.b.get(), EncodeMuxFrames(1, "abcdef").substr(0, 10));
  p.b.Reset();
  ASSERT_TRUE(trunk.WaitClosed(seconds(10)));
  EXPECT_EQ(trunk.close_reason().code(), StatusCode::kDataLoss);
  EXPECT_EQ(one.data(), "");
}

TEST(TrunkTest, ReceiverErrorCloses) {
  Pair p;
  Trunk trunk(std::move(p.a));
  Collector one;
  one.fail_ = true;
  trunk.Attach(1, &one);
  trunk.Start(nullptr);
  WriteRaw(p.b.get(), EncodeMuxFrames(1, "bad"));
  ASSERT_TRUE(trunk.WaitClosed(seconds(10)));
  EXPECT_EQ(trunk.close_reason().code(), StatusCode::kDataLoss);
  EXPECT_NE(trunk.close_reason().message().find("connection 1"),
            std::string::npos);
}

TEST(TrunkTest, LocalCloseIsCancelled) {
  Pair p;
  Trunk trunk(std::move(p.a));
  trunk.Start(nullptr);
  trunk.Close();
  ASSERT_TRUE(trunk.WaitClosed(seconds(10)));
  EXPECT_EQ(trunk.close_reason().code(), StatusCode::kCancelled);
}

}  // namespace
}  // namespace gcushare::nri::mux
