// The extender's request framing over real TCP: clients trickling their
// heads or bodies hold no worker (filter and bind are answered beside
// them), and each limit answers its status code and leaves the extender
// serving.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "extender/testing/objects.h"
#include "testing/files.h"
#include "tests/extender/harness.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare {
namespace {

using extender::testing::MemoryPod;
using extender::testing::SharingNode;
using nlohmann::json;

const std::string kFilter = "/gcushare-scheduler/filter";

// One raw TCP connection to the extender. Every read is bounded by the
// client's own deadline (30 s) so that a server that never answers fails
// the test instead of hanging it.
class RawConnection {
 public:
  explicit RawConnection(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    timeval deadline{30, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &deadline, sizeof deadline);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~RawConnection() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool connected() const { return fd_ >= 0; }
  bool Send(const std::string& bytes) {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
           static_cast<ssize_t>(bytes.size());
  }
  // Whether the server has sent something (or closed) within `ms`: the
  // pace of a trickling client, not a verdict.
  bool Answered(int ms) {
    pollfd p{fd_, POLLIN, 0};
    return ::poll(&p, 1, ms) > 0;
  }
  // Reads one answer: its status line's code and its body ("" and 0 when
  // the connection ended first).
  testing::HttpAnswer Read() {
    for (;;) {
      size_t end = in_.find("\r\n\r\n");
      if (end != std::string::npos) {
        testing::HttpAnswer answer;
        answer.status = std::stoi(in_.substr(9, 3));
        size_t length = 0;
        size_t at = in_.find("Content-Length: ");
        if (at != std::string::npos && at < end) {
          length = std::stoul(in_.substr(at + 16));
        }
        if (answer.status == 100) length = 0;
        if (in_.size() >= end + 4 + length) {
          answer.body = in_.substr(end + 4, length);
          in_.erase(0, end + 4 + length);
          return answer;
        }
      }
      char buffer[4096];
      ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) return {};
      in_.append(buffer, static_cast<size_t>(n));
    }
  }

 private:
  int fd_ = -1;
  std::string in_;
};

class RequestLimitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::MakeTempDir();
    kubeconfig_ = testing::WriteKubeconfig(dir_, api_.port());
    ASSERT_EQ(
        api_.Post("/api/v1/nodes", SharingNode("n1", 1, 16).dump()).status,
        201);
  }
  void StartExtender(const std::vector<std::string>& flags) {
    Status started = extender_.Start(kubeconfig_, dir_ + "/logs", flags);
    ASSERT_TRUE(started.ok()) << started.message();
    for (int i = 0; i < 1000; ++i) {
      if (extender_.Get("/inspect/n1").status == 200) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL() << "node n1 never reached the cache";
  }
  json CreatePod(const std::string& name) {
    auto r =
        api_.Post("/api/v1/namespaces/default/pods", MemoryPod(name, 4).dump());
    EXPECT_EQ(r.status, 201) << r.body;
    return json::parse(r.body);
  }
  static std::string Post(const std::string& path, const std::string& body,
                          const std::string& extra_headers = "") {
    return "POST " + path + " HTTP/1.1\r\nHost: x\r\n" + extra_headers +
           "Content-Type: application/json\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + body;
  }

  apiserver::testing::TestServer api_;
  std::string dir_;
  std::string kubeconfig_;
  testing::ExtenderProcess extender_;
};

// 64 clients trickle a filter head one byte at a time and 64 trickle a
// filter body, on 4 workers; a normal filter and bind are answered with
// their real content meanwhile, and every trickling client is cut off with
// a 408 at its deadline. (With httplib reading heads on the workers, each
// head trickler held a worker for --read-timeout per byte: filter got no
// answer and no trickler was cut off.)
TEST_F(RequestLimitsTest, TricklingHeadsAndBodiesHoldNoWorker) {
  StartExtender({"--http-threads=4", "--head-timeout=2", "--body-timeout=2",
                 "--read-timeout=20"});
  json pod = CreatePod("a");
  constexpr int kEach = 64;
  std::mutex mu;
  std::condition_variable cv;
  int started = 0;
  std::atomic<int> got_408{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < 2 * kEach; ++i) {
    const bool body = i % 2 == 1;
    clients.emplace_back([&, body] {
      RawConnection c(extender_.port());
      std::string bytes =
          "POST " + kFilter +
          " HTTP/1.1\r\nHost: x\r\nX-Padding: " + std::string(2000, 'p') +
          "\r\nContent-Length: 100000\r\n\r\n";
      if (body) {
        c.Send(bytes);
        bytes = std::string(100000, '[');
      }
      bool sending = c.connected() && c.Send(bytes.substr(0, 1));
      {
        std::lock_guard<std::mutex> lock(mu);
        ++started;
      }
      cv.notify_all();
      // One byte per 100 ms (the stimulus) until the server answers; the
      // bytes run out after 200 s at the earliest (the client's own bound).
      for (size_t sent = 1; sending && sent < bytes.size(); ++sent) {
        if (c.Answered(100)) break;
        sending = c.Send(bytes.substr(sent, 1));
      }
      if (c.Read().status == 408) ++got_408;
    });
  }
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return started == 2 * kEach; });
  }
  // Every trickler has begun; filter and bind are answered beside them.
  auto filtered = extender_.Post(
      "/filter",
      json{{"Pod", pod}, {"Nodes", nullptr}, {"NodeNames", {"n1"}}}.dump());
  ASSERT_EQ(filtered.status, 200) << filtered.body;
  EXPECT_EQ(json::parse(filtered.body)["NodeNames"], json::array({"n1"}));
  auto bound = extender_.Post("/bind", json{{"PodName", "a"},
                                            {"PodNamespace", "default"},
                                            {"PodUID", pod["metadata"]["uid"]},
                                            {"Node", "n1"}}
                                           .dump());
  ASSERT_EQ(bound.status, 200) << bound.body;
  EXPECT_EQ(json::parse(bound.body)["Error"], "");
  EXPECT_EQ(api_.Get("/api/v1/namespaces/default/pods/a").status, 200);
  EXPECT_NE(api_.Get("/api/v1/namespaces/default/pods/a")
                .body.find("\"nodeName\":\"n1\""),
            std::string::npos);
  for (auto& t : clients) t.join();
  // Each trickling client was cut off by the server, with a 408.
  EXPECT_EQ(got_408.load(), 2 * kEach);
  auto metrics = extender_.Get("/metrics");
  EXPECT_NE(metrics.body.find(
                "gcushare_extender_refused_requests_total{code=\"408\"} 128"),
            std::string::npos)
      << metrics.body;
}

TEST_F(RequestLimitsTest, EachLimitHasItsStatusAndChangesNothing) {
  StartExtender({"--max-body-mib=1", "--head-timeout=1", "--body-timeout=1",
                 "--read-timeout=30"});
  struct Case {
    std::string name;
    std::string bytes;  // Sent, then the answer is read.
    int status;
    const char* message;
  };
  const std::string head = "POST " + kFilter + " HTTP/1.1\r\nHost: x\r\n";
  const Case cases[] = {
      {"head over 64 KiB",
       head + "X-Big: " + std::string(70 << 10, 'b') + "\r\n\r\n", 431,
       "request head over 65536 bytes"},
      {"no Content-Length", head + "\r\n{}", 411,
       "POST needs a Content-Length"},
      {"chunked",
       head + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", 411,
       "chunked request bodies are not accepted"},
      {"body over --max-body-mib",
       head + "Content-Length: " + std::to_string((1 << 20) + 1) + "\r\n\r\n",
       413, "request body over 1048576 bytes"},
      {"malformed request line", "FILTER ME\r\n\r\n", 400,
       "malformed request line"},
      {"head never finished", head + "Content-Le", 408,
       "request head not received within 1000 ms"},
      {"body never finished", head + "Content-Length: 10\r\n\r\n{\"P", 408,
       "request body not received within 1000 ms"},
  };
  for (const Case& c : cases) {
    RawConnection conn(extender_.port());
    ASSERT_TRUE(conn.connected());
    ASSERT_TRUE(conn.Send(c.bytes)) << c.name;
    auto answer = conn.Read();
    EXPECT_EQ(answer.status, c.status) << c.name;
    EXPECT_NE(answer.body.find(c.message), std::string::npos)
        << c.name << ": " << answer.body;
  }
  // Nothing was placed, and filter still answers.
  json pod = CreatePod("a");
  auto filtered = extender_.Post(
      "/filter",
      json{{"Pod", pod}, {"Nodes", nullptr}, {"NodeNames", {"n1"}}}.dump());
  EXPECT_EQ(json::parse(filtered.body)["NodeNames"], json::array({"n1"}));
  EXPECT_EQ(
      json::parse(extender_.Get("/inspect/n1").body)["nodes"][0]["usedGCU"], 0);
}

// Keep-alive (as kube-scheduler reuses connections) and Expect:
// 100-continue; a method a path does not serve is 405.
TEST_F(RequestLimitsTest, KeepAliveAndExpectContinue) {
  StartExtender({});
  json pod = CreatePod("a");
  const std::string args =
      json{{"Pod", pod}, {"Nodes", nullptr}, {"NodeNames", {"n1"}}}.dump();
  RawConnection conn(extender_.port());
  ASSERT_TRUE(conn.Send(Post(kFilter, args)));
  auto first = conn.Read();
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(json::parse(first.body)["NodeNames"], json::array({"n1"}));
  // The same connection, pipelined: two requests in one write.
  ASSERT_TRUE(conn.Send(Post(kFilter, args) +
                        "GET /gcushare-scheduler/filter HTTP/1.1\r\n\r\n"));
  EXPECT_EQ(json::parse(conn.Read().body)["NodeNames"], json::array({"n1"}));
  auto wrong_method = conn.Read();
  EXPECT_EQ(wrong_method.status, 405);
  EXPECT_EQ(wrong_method.body, "use POST\n");

  // The body is sent only after the server's 100 Continue.
  const std::string with_expect =
      Post(kFilter, args, "Expect: 100-continue\r\n");
  const size_t head_end = with_expect.find("\r\n\r\n") + 4;
  ASSERT_TRUE(conn.Send(with_expect.substr(0, head_end)));
  EXPECT_EQ(conn.Read().status, 100);
  ASSERT_TRUE(conn.Send(with_expect.substr(head_end)));
  auto continued = conn.Read();
  EXPECT_EQ(continued.status, 200);
  EXPECT_EQ(json::parse(continued.body)["NodeNames"], json::array({"n1"}));
}

// Over the connection cap, or over the bytes buffered for requests, a new
// request gets 503 and the requests already admitted are served.
TEST_F(RequestLimitsTest, ConnectionAndBufferCapsAre503) {
  StartExtender({"--max-connections=8", "--max-body-mib=1",
                 "--max-buffered-mib=1", "--read-timeout=30",
                 "--head-timeout=30", "--body-timeout=30"});
  // Only the scrape's own connection is open (those of the start-up
  // checks have been seen closed).
  bool alone = false;
  for (int i = 0; i < 1000 && !alone; ++i) {
    alone = extender_.Get("/metrics")
                .body.find("gcushare_extender_open_connections 1\n") !=
            std::string::npos;
  }
  ASSERT_TRUE(alone);
  {
    // Admitted first: 8 open connections, the cap.
    std::vector<std::unique_ptr<RawConnection>> held;
    for (int i = 0; i < 8; ++i) {
      held.push_back(std::make_unique<RawConnection>(extender_.port()));
      ASSERT_TRUE(held.back()->connected());
    }
    // The last one admitted answers (so all 8 were accepted before the 9th).
    ASSERT_TRUE(
        held.back()->Send("GET /gcushare-scheduler/healthz HTTP/1.1\r\n\r\n"));
    EXPECT_EQ(held.back()->Read().body, "ok\n");
    RawConnection ninth(extender_.port());
    auto refused = ninth.Read();
    EXPECT_EQ(refused.status, 503);
    EXPECT_EQ(refused.body, "too many open connections (8)\n");
  }
  // The cap frees as connections close: the server sees the closes in its
  // own time, so ask until one is admitted (bounded).
  int status = 0;
  for (int i = 0; i < 500 && status != 200; ++i) {
    status = extender_.Get("/healthz").status;
  }
  ASSERT_EQ(status, 200);

  // A body of almost 1 MiB is admitted (the 100 Continue says so); a
  // second body would pass the 1 MiB buffered: 503.
  const std::string big(1000000, ' ');
  RawConnection first(extender_.port());
  const std::string first_request =
      Post(kFilter, big, "Expect: 100-continue\r\n");
  const size_t head_end = first_request.find("\r\n\r\n") + 4;
  ASSERT_TRUE(first.Send(first_request.substr(0, head_end)));
  ASSERT_EQ(first.Read().status, 100);
  RawConnection second(extender_.port());
  ASSERT_TRUE(second.Send(Post(kFilter, std::string(100000, ' '))));
  auto busy = second.Read();
  EXPECT_EQ(busy.status, 503);
  EXPECT_EQ(busy.body, "server busy: too many request bytes buffered\n");
  // The admitted one is served (its body is not JSON: 400, by the handler).
  ASSERT_TRUE(first.Send(first_request.substr(head_end)));
  auto served = first.Read();
  EXPECT_EQ(served.status, 400);
  EXPECT_NE(served.body.find("JSON"), std::string::npos) << served.body;
}

}  // namespace
}  // namespace gcushare
