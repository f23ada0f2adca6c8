// FramedHttpServer over a real TCP socket: answers far larger than the
// socket buffers go out whole, head then body, and the connection serves
// the next request after them.
#include "http/framed_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <string>

#include "gtest/gtest.h"

namespace gcushare::http {
namespace {

// Bytes that show a reordered, repeated or lost chunk.
std::string Pattern(size_t size) {
  std::string out(size, '\0');
  for (size_t i = 0; i < size; ++i) {
    out[i] = static_cast<char>('a' + (i * 7 + i / 4093) % 26);
  }
  return out;
}

// A blocking client with a small receive buffer, so that the server's
// writes of a large answer are partial many times over.
class Client {
 public:
  explicit Client(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int small = 4096;
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ =
        ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~Client() { ::close(fd_); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  bool connected() const { return connected_; }

  // Sends a GET of `path`; reads one answer: its head, and its body by
  // Content-Length. False when the connection ends first.
  bool Get(const std::string& path, std::string* head, std::string* body) {
    const std::string request =
        "GET " + path + " HTTP/1.1\r\nHost: test\r\n\r\n";
    if (::send(fd_, request.data(), request.size(), MSG_NOSIGNAL) !=
        static_cast<ssize_t>(request.size())) {
      return false;
    }
    size_t end;
    while ((end = buffered_.find("\r\n\r\n")) == std::string::npos) {
      if (!ReadSome()) return false;
    }
    *head = buffered_.substr(0, end + 4);
    buffered_.erase(0, end + 4);
    const std::string key = "Content-Length: ";
    const size_t at = head->find(key);
    if (at == std::string::npos) return false;
    const size_t length = std::stoul(head->substr(at + key.size()));
    while (buffered_.size() < length) {
      if (!ReadSome()) return false;
    }
    *body = buffered_.substr(0, length);
    buffered_.erase(0, length);
    return true;
  }

 private:
  bool ReadSome() {
    char chunk[1024];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffered_.append(chunk, static_cast<size_t>(n));
    return true;
  }

  int fd_ = -1;
  bool connected_ = false;
  std::string buffered_;
};

TEST(FramedHttpServerTest, LargeAnswerArrivesWholeThenTheNext) {
  const std::string big = Pattern(6 << 20);
  FramedHttpOptions options;
  options.address = "127.0.0.1";
  options.worker_threads = 2;
  FramedHttpServer server(options, [&](const HttpRequest& req) {
    if (req.path == "/big") return HttpResponse{200, big, "text/plain"};
    return HttpResponse{404, "no " + req.path + "\n", "text/plain"};
  });
  ASSERT_TRUE(server.Start().ok());

  Client client(server.port());
  ASSERT_TRUE(client.connected());
  std::string head;
  std::string body;
  ASSERT_TRUE(client.Get("/big", &head, &body));
  EXPECT_EQ(head.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << head;
  EXPECT_NE(head.find("Content-Length: 6291456\r\n"), std::string::npos);
  EXPECT_NE(head.find("Connection: keep-alive\r\n"), std::string::npos);
  ASSERT_EQ(body.size(), big.size());
  EXPECT_TRUE(body == big) << "the body arrived altered";

  // The same connection, after the large answer: a new head, a new body.
  ASSERT_TRUE(client.Get("/other", &head, &body));
  EXPECT_EQ(head.rfind("HTTP/1.1 404 Not Found\r\n", 0), 0u) << head;
  EXPECT_EQ(body, "no /other\n");
  server.Stop();
}

TEST(FramedHttpServerTest, EmptyBodyIsHeadOnly) {
  FramedHttpOptions options;
  options.address = "127.0.0.1";
  options.worker_threads = 1;
  FramedHttpServer server(options, [](const HttpRequest&) {
    return HttpResponse{200, "", "text/plain"};
  });
  ASSERT_TRUE(server.Start().ok());
  Client client(server.port());
  ASSERT_TRUE(client.connected());
  std::string head;
  std::string body = "stale";
  ASSERT_TRUE(client.Get("/", &head, &body));
  EXPECT_EQ(head.rfind("HTTP/1.1 200 ", 0), 0u) << head;
  EXPECT_NE(head.find("Content-Length: 0\r\n"), std::string::npos);
  EXPECT_EQ(body, "");
  // And the connection still answers.
  ASSERT_TRUE(client.Get("/", &head, &body));
  EXPECT_EQ(head.rfind("HTTP/1.1 200 ", 0), 0u) << head;
  server.Stop();
}

}  // namespace
}  // namespace gcushare::http
