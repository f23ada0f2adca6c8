#include "tests/peers/apiserver/testing/test_server.h"

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace gcushare::apiserver::testing {
namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void Die(const std::string& why) {
  std::fprintf(stderr, "test_server: %s\n", why.c_str());
  std::abort();
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(c));
  return s;
}

}  // namespace

HttpResult Request(int port, const std::string& method, const std::string& path,
                   const std::string& body, const std::string& content_type,
                   const std::string& token) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(30, 0);
  httplib::Headers headers;
  if (!token.empty()) headers.emplace("Authorization", "Bearer " + token);
  auto send = [&]() -> httplib::Result {
    if (method == "POST") {
      return client.Post(path.c_str(), headers, body, content_type.c_str());
    }
    if (method == "PUT") {
      return client.Put(path.c_str(), headers, body, content_type.c_str());
    }
    if (method == "PATCH") {
      return client.Patch(path.c_str(), headers, body, content_type.c_str());
    }
    if (method == "DELETE") {
      return client.Delete(path.c_str(), headers, body, content_type.c_str());
    }
    return client.Get(path.c_str(), headers);
  };
  httplib::Result r = send();
  HttpResult out;
  if (!r) return out;
  out.status = r->status;
  out.body = r->body;
  out.content_type = r->get_header_value("Content-Type");
  auto parsed = ParseJson(r->body);
  if (parsed.ok()) out.json = std::move(*parsed);
  return out;
}

TestServer::TestServer(ServerOptions options) {
  options.port = 0;
  auto server = ApiServer::Create(options);
  if (!server.ok()) Die(server.status().ToString());
  server_ = std::move(*server);
  Status started = server_->Start();
  if (!started.ok()) Die(started.ToString());
}

TestServer::~TestServer() { server_->Stop(); }

Json TestServer::CreatePod(const std::string& ns, const std::string& name,
                           const Json& labels, const std::string& node) {
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"labels", labels}}},
              {"spec",
               {{"containers",
                 Json::array({{{"name", "main"}, {"image", "busybox:1"}}})}}}};
  if (!node.empty()) pod["spec"]["nodeName"] = node;
  HttpResult r = Post("/api/v1/namespaces/" + ns + "/pods", DumpJson(pod));
  if (r.status != 201) Die("create pod " + name + ": " + r.body);
  return r.json;
}

Json TestServer::CreateNode(const std::string& name, const Json& labels) {
  Json node = {{"apiVersion", "v1"},
               {"kind", "Node"},
               {"metadata", {{"name", name}, {"labels", labels}}}};
  HttpResult r = Post("/api/v1/nodes", DumpJson(node));
  if (r.status != 201) Die("create node " + name + ": " + r.body);
  return r.json;
}

WatchReader::WatchReader(int port, const std::string& path,
                         const std::string& token) {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd_ < 0) Die("socket");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    Die("connect");
  }
  std::string request = "GET " + path +
                        " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        "Accept: application/json\r\n"
                        "Accept-Encoding: gzip\r\n";
  if (!token.empty()) request += "Authorization: Bearer " + token + "\r\n";
  request += "\r\n";
  if (::send(fd_, request.data(), request.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(request.size())) {
    Die("send");
  }
  Clock::time_point deadline = Clock::now() + std::chrono::seconds(30);
  size_t end = std::string::npos;
  while ((end = raw_.find("\r\n\r\n")) == std::string::npos) {
    if (!Fill(deadline)) Die("no response headers: " + raw_);
  }
  std::string head = raw_.substr(0, end);
  raw_.erase(0, end + 4);
  size_t line_end = head.find("\r\n");
  std::string status_line = head.substr(0, line_end);
  status_ = std::atoi(status_line.substr(9, 3).c_str());
  size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
  while (pos < head.size()) {
    size_t next = head.find("\r\n", pos);
    if (next == std::string::npos) next = head.size();
    std::string line = head.substr(pos, next - pos);
    size_t colon = line.find(':');
    if (colon != std::string::npos) {
      std::string value = line.substr(colon + 1);
      while (!value.empty() && value[0] == ' ') value.erase(0, 1);
      headers_[Lower(line.substr(0, colon))] = value;
    }
    pos = next + 2;
  }
  if (Lower(headers_["transfer-encoding"]) != "chunked") {
    // A plain body (an error): treat it as the whole stream.
    body_ = raw_;
    raw_.clear();
    ended_ = true;
  } else {
    DecodeChunks();
  }
}

WatchReader::~WatchReader() {
  if (fd_ >= 0) ::close(fd_);
}

bool WatchReader::Fill(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - Clock::now());
  if (left.count() <= 0) return false;
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
  char buf[65536];
  ssize_t n = ::recv(fd_, buf, sizeof(buf), 0);
  if (n <= 0) return false;
  raw_.append(buf, static_cast<size_t>(n));
  return true;
}

void WatchReader::DecodeChunks() {
  while (!ended_) {
    size_t line_end = raw_.find("\r\n");
    if (line_end == std::string::npos) return;
    size_t size = std::strtoul(raw_.substr(0, line_end).c_str(), nullptr, 16);
    if (size == 0) {
      ended_ = true;
      return;
    }
    if (raw_.size() < line_end + 2 + size + 2) return;
    body_.append(raw_, line_end + 2, size);
    chunk_sizes_.push_back(size);
    raw_.erase(0, line_end + 2 + size + 2);
  }
}

std::optional<Json> WatchReader::Next(std::chrono::milliseconds timeout) {
  Clock::time_point deadline = Clock::now() + timeout;
  for (;;) {
    size_t nl = body_.find('\n');
    if (nl != std::string::npos) {
      std::string line = body_.substr(0, nl);
      body_.erase(0, nl + 1);
      auto parsed = ParseJson(line);
      if (!parsed.ok()) Die("watch line is not JSON: " + line);
      return std::move(*parsed);
    }
    if (ended_) return std::nullopt;
    if (!Fill(deadline)) return std::nullopt;
    DecodeChunks();
  }
}

std::optional<Json> WatchReader::NextNonBookmark(
    std::chrono::milliseconds timeout) {
  Clock::time_point deadline = Clock::now() + timeout;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    if (left.count() <= 0) return std::nullopt;
    std::optional<Json> e = Next(left);
    if (!e || (*e)["type"] != "BOOKMARK") return e;
  }
}

bool WatchReader::WaitForEnd(std::chrono::milliseconds timeout) {
  Clock::time_point deadline = Clock::now() + timeout;
  while (!ended_) {
    if (!Fill(deadline)) return ended_;
    DecodeChunks();
  }
  return true;
}

}  // namespace gcushare::apiserver::testing
