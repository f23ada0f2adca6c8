// ttrpc client and server talking through two mux trunks over a socket
// pair: the real framing end to end.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "nri-plugin/api/ttrpc.pb.h"
#include "nri-plugin/mux/trunk.h"
#include "nri-plugin/ttrpc/client.h"
#include "nri-plugin/ttrpc/server.h"

namespace gcushare::nri::ttrpc {
namespace {

using std::chrono::seconds;

class RpcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int fds[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    peer_fd_ = fds[1];
    client_trunk_ = std::make_unique<mux::Trunk>(UniqueFd(fds[0]));
    server_trunk_ = std::make_unique<mux::Trunk>(UniqueFd(fds[1]));
    client_ = std::make_unique<Client>(client_trunk_->Sink(1));
    server_ = std::make_unique<Server>(server_trunk_->Sink(1));
    client_trunk_->Attach(1, client_.get());
    server_trunk_->Attach(1, server_.get());
    server_->Register("svc", "Echo",
                      [](const RequestContext& c,
                         const std::string& payload) -> StatusOr<std::string> {
                        return c.method + ":" + payload;
                      });
    server_->Register(
        "svc", "Fail",
        [](const RequestContext&, const std::string&) -> StatusOr<std::string> {
          return NotFoundError("no such thing");
        });
    server_->Register("svc", "Meta",
                      [](const RequestContext& c,
                         const std::string&) -> StatusOr<std::string> {
                        std::string out = std::to_string(c.timeout_nano > 0);
                        for (auto& [k, v] : c.metadata) {
                          out += k;
                          out += "=";
                          out += v;
                        }
                        return out;
                      });
  }
  void Start() {
    client_trunk_->Start([this](const Status& s) { client_->Fail(s); });
    server_trunk_->Start(nullptr);
  }
  void TearDown() override {
    client_trunk_->Close();
    server_trunk_->Close();
    client_trunk_->Join();
    server_trunk_->Join();
    server_->Stop();
  }

  int peer_fd_ = -1;
  std::unique_ptr<mux::Trunk> client_trunk_, server_trunk_;
  std::unique_ptr<Client> client_;
  std::unique_ptr<Server> server_;
};

TEST_F(RpcTest, UnaryCallAndErrors) {
  Start();
  auto r = client_->Call("svc", "Echo", "ping", seconds(10));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, "Echo:ping");

  auto f = client_->Call("svc", "Fail", "", seconds(10));
  EXPECT_EQ(f.status().code(), StatusCode::kNotFound);
  EXPECT_NE(f.status().message().find("no such thing"), std::string::npos);

  auto m = client_->Call("svc", "Meta", "", seconds(10), {{"k", "v"}});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(*m, "1k=v");

  EXPECT_EQ(client_->Call("svc", "Nope", "", seconds(10)).status().code(),
            StatusCode::kUnimplemented);
  auto other = client_->Call("other", "Echo", "", seconds(10));
  EXPECT_EQ(other.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(other.status().message().find("service other"), std::string::npos);
}

TEST_F(RpcTest, ManyConcurrentCallsMatchTheirResponses) {
  Start();
  std::vector<std::thread> threads;
  threads.reserve(64);
  std::atomic<int> good{0};
  for (int i = 0; i < 64; ++i) {
    threads.emplace_back([&, i] {
      std::string payload = std::string(i * 200, 'x') + std::to_string(i);
      auto r = client_->Call("svc", "Echo", payload, seconds(30));
      if (r.ok() && *r == "Echo:" + payload) good++;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(good.load(), 64);
}

TEST_F(RpcTest, TimeoutThenLateResponseIsIgnored) {
  // The handler holds its own reference to the release signal: another
  // worker can answer "after" and end this test while the Slow one is still
  // in the handler (it used to poll an atomic on this stack frame, and under
  // TSan read the dead frame and never returned, hanging TearDown).
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  server_->Register("svc", "Slow",
                    [released](const RequestContext&,
                               const std::string&) -> StatusOr<std::string> {
                      released.wait();
                      return std::string("late");
                    });
  Start();
  auto r = client_->Call("svc", "Slow", "", std::chrono::milliseconds(20));
  EXPECT_EQ(r.status().code(), StatusCode::kDeadlineExceeded);
  release.set_value();
  // The late answer is dropped and the connection stays usable.
  auto next = client_->Call("svc", "Echo", "after", seconds(10));
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(*next, "Echo:after");
}

TEST_F(RpcTest, ClosedConnectionFailsCalls) {
  Start();
  server_trunk_->Close();
  ASSERT_TRUE(client_trunk_->WaitClosed(seconds(10)));
  EXPECT_EQ(client_->Call("svc", "Echo", "", seconds(10)).status().code(),
            StatusCode::kUnavailable);
}

TEST_F(RpcTest, GarbageRequestClosesTheConnection) {
  Start();
  // A Request frame whose body is not a protobuf message.
  auto frame = EncodeFrame(1, FrameType::kRequest, 0, "\xff\xff\xff");
  ASSERT_TRUE(client_trunk_->Write(1, *frame).ok());
  ASSERT_TRUE(server_trunk_->WaitClosed(seconds(10)));
  EXPECT_EQ(server_trunk_->close_reason().code(), StatusCode::kDataLoss);
}

TEST_F(RpcTest, ResponseToUnopenedStreamClosesTheClient) {
  Start();
  ::ttrpc::Response response;
  response.set_payload("x");
  auto frame =
      EncodeFrame(99, FrameType::kResponse, 0, response.SerializeAsString());
  ASSERT_TRUE(server_trunk_->Write(1, *frame).ok());
  ASSERT_TRUE(client_trunk_->WaitClosed(seconds(10)));
  EXPECT_EQ(client_trunk_->close_reason().code(), StatusCode::kDataLoss);
}

TEST_F(RpcTest, StreamIdsAreOddAndIncreasing) {
  std::vector<uint32_t> seen;
  std::mutex mu;
  server_->Register("svc", "Id",
                    [&](const RequestContext& c,
                        const std::string&) -> StatusOr<std::string> {
                      std::lock_guard<std::mutex> lock(mu);
                      seen.push_back(c.stream_id);
                      return std::string();
                    });
  Start();
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(client_->Call("svc", "Id", "", seconds(10)).ok());
  }
  EXPECT_EQ(seen, (std::vector<uint32_t>{1, 3, 5}));
}

}  // namespace
}  // namespace gcushare::nri::ttrpc
