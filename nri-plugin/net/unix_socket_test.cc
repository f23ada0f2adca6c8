#include "nri-plugin/net/unix_socket.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "testing/files.h"

namespace gcushare::nri {
namespace {

TEST(UnixSocketTest, ConnectAcceptAndTalk) {
  std::string path = gcushare::testing::MakeTempDir() + "/s.sock";
  auto listener = ListenUnix(path);
  ASSERT_TRUE(listener.ok()) << listener.status();
  auto client = ConnectUnix(path);
  ASSERT_TRUE(client.ok()) << client.status();
  auto server = AcceptUnix(listener->get(), std::chrono::seconds(10));
  ASSERT_TRUE(server.ok()) << server.status();
  ASSERT_EQ(::write(client->get(), "hi", 2), 2);
  char buf[2];
  ASSERT_EQ(::read(server->get(), buf, 2), 2);
  EXPECT_EQ(std::string(buf, 2), "hi");
}

TEST(UnixSocketTest, NobodyListening) {
  std::string dir = gcushare::testing::MakeTempDir();
  EXPECT_EQ(ConnectUnix(dir + "/none.sock").status().code(),
            StatusCode::kNotFound);
  {
    auto listener = ListenUnix(dir + "/gone.sock");
    ASSERT_TRUE(listener.ok());
  }
  // The socket file stays, but nobody accepts on it.
  EXPECT_EQ(ConnectUnix(dir + "/gone.sock").status().code(),
            StatusCode::kUnavailable);
  // A stale socket file is replaced.
  EXPECT_TRUE(ListenUnix(dir + "/gone.sock").ok());
}

TEST(UnixSocketTest, RefusesToReplaceAFile) {
  std::string dir = gcushare::testing::MakeTempDir();
  gcushare::testing::WriteFileOrDie(dir + "/f", "data");
  EXPECT_EQ(ListenUnix(dir + "/f").status().code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(gcushare::testing::ReadFileOrEmpty(dir + "/f"), "data");
}

TEST(UnixSocketTest, AcceptTimesOut) {
  std::string path = gcushare::testing::MakeTempDir() + "/t.sock";
  auto listener = ListenUnix(path);
  ASSERT_TRUE(listener.ok());
  EXPECT_EQ(
      AcceptUnix(listener->get(), std::chrono::milliseconds(1)).status().code(),
      StatusCode::kDeadlineExceeded);
}

TEST(UnixSocketTest, PathTooLong) {
  EXPECT_EQ(ConnectUnix(std::string(200, 'a')).status().code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace gcushare::nri
