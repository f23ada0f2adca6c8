// The client against an HTTPS server whose certificates are made at test
// time with /usr/bin/openssl (skipped when it is missing).
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "base/testing/fake_clock.h"
#include "kube/curl_kube_client.h"
#include "kube/json_fields.h"
#include "kube/testing/scripted_server.h"
#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare::kube {
namespace {

using ::gcushare::kube::testing::ScriptedServer;
using ::gcushare::kube::testing::ServerTls;
using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::ReadFileOrEmpty;
using ::gcushare::testing::RunProcess;

constexpr char kOpenssl[] = "/usr/bin/openssl";

// Makes a self-signed certificate for 127.0.0.1 (<name>.crt, <name>.key).
bool MakeCertificate(const std::string& dir, const std::string& name,
                     const std::string& common_name) {
  StatusOr<::gcushare::testing::ProcessResult> result = RunProcess(
      {kOpenssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
       dir + "/" + name + ".key", "-out", dir + "/" + name + ".crt", "-days",
       "2", "-subj", "/CN=" + common_name, "-addext",
       "subjectAltName=IP:127.0.0.1,DNS:localhost"});
  return result.ok() && result->exit_code == 0;
}

class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(kOpenssl, X_OK) != 0) {
      GTEST_SKIP() << kOpenssl << " is not installed; TLS tests skipped";
    }
    ASSERT_TRUE(MakeCertificate(dir_, "server", "kube-apiserver"));
    ASSERT_TRUE(MakeCertificate(dir_, "client", "gcushare"));
  }

  std::unique_ptr<ScriptedServer> StartServer(bool require_client_cert) {
    ServerTls tls;
    tls.cert_file = dir_ + "/server.crt";
    tls.key_file = dir_ + "/server.key";
    if (require_client_cert) tls.client_ca_file = dir_ + "/client.crt";
    auto server = std::make_unique<ScriptedServer>(tls);
    server->Handle("GET", "/api/v1/nodes/n1",
                   [](const httplib::Request&, httplib::Response& res) {
                     ScriptedServer::Json(res, 200,
                                          R"({"metadata":{"name":"n1"}})");
                   });
    server->Start();
    return server;
  }

  StatusOr<nlohmann::json> GetNode(ClientConfig config,
                                   const ScriptedServer& server) {
    config.server = server.url();
    KubeClientOptions options;
    options.clock = &clock_;
    auto client = CurlKubeClient::Create(config, options);
    if (!client.ok()) return client.status();
    return (*client)->Get(Resource::Nodes(), "", "n1");
  }

  const std::string dir_ = MakeTempDir();
  base::FakeClock clock_;
};

TEST_F(TlsTest, VerifiesTheServerWithACaFile) {
  auto server = StartServer(false);
  ClientConfig config;
  config.tls.ca_file = dir_ + "/server.crt";
  StatusOr<nlohmann::json> node = GetNode(config, *server);
  ASSERT_TRUE(node.ok()) << node.status();
  EXPECT_EQ(NameOf(*node), "n1");
}

TEST_F(TlsTest, VerifiesTheServerWithInMemoryCaData) {
  auto server = StartServer(false);
  ClientConfig config;
  config.tls.ca_data = ReadFileOrEmpty(dir_ + "/server.crt");
  StatusOr<nlohmann::json> node = GetNode(config, *server);
  ASSERT_TRUE(node.ok()) << node.status();
}

TEST_F(TlsTest, UnknownServerCertificateIsRejectedWithoutRetries) {
  auto server = StartServer(false);
  ClientConfig config;
  config.tls.ca_file = dir_ + "/client.crt";  // The wrong CA.
  StatusOr<nlohmann::json> node = GetNode(config, *server);
  ASSERT_FALSE(node.ok());
  EXPECT_EQ(node.status().code(), StatusCode::kFailedPrecondition)
      << node.status();
  EXPECT_TRUE(clock_.sleeps().empty());
  EXPECT_TRUE(server->requests().empty());
}

TEST_F(TlsTest, InsecureSkipVerifyAcceptsAnyCertificate) {
  auto server = StartServer(false);
  ClientConfig config;
  config.tls.insecure_skip_verify = true;
  StatusOr<nlohmann::json> node = GetNode(config, *server);
  ASSERT_TRUE(node.ok()) << node.status();
}

TEST_F(TlsTest, ClientCertificateFromMemoryAndFromFiles) {
  auto server = StartServer(/*require_client_cert=*/true);
  ClientConfig in_memory;
  in_memory.tls.ca_data = ReadFileOrEmpty(dir_ + "/server.crt");
  in_memory.tls.cert_data = ReadFileOrEmpty(dir_ + "/client.crt");
  in_memory.tls.key_data = ReadFileOrEmpty(dir_ + "/client.key");
  StatusOr<nlohmann::json> node = GetNode(in_memory, *server);
  ASSERT_TRUE(node.ok()) << node.status();

  ClientConfig files;
  files.tls.ca_file = dir_ + "/server.crt";
  files.tls.cert_file = dir_ + "/client.crt";
  files.tls.key_file = dir_ + "/client.key";
  node = GetNode(files, *server);
  ASSERT_TRUE(node.ok()) << node.status();

  ClientConfig without;
  without.tls.ca_file = dir_ + "/server.crt";
  node = GetNode(without, *server);
  EXPECT_FALSE(node.ok());
  EXPECT_EQ(server->requests().size(), 2u);
}

}  // namespace
}  // namespace gcushare::kube
