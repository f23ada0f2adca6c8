// Each daemon's own seccomp allow-list, loaded for real, still lets the kube
// client do its whole job: resolve the API server's name, speak TLS with a
// client certificate, read a token file. The end-to-end tests cover the
// rest of each daemon's paths over plain HTTP; a call missing from a list
// here shows as "seccomp: denied system call <name>" in the failure.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "base/testing/fake_clock.h"
#include "config-manager/syscalls.h"
#include "daemon/seccomp.h"
#include "device-plugin/syscalls.h"
#include "extender/syscalls.h"
#include "kube/curl_kube_client.h"
#include "kube/testing/scripted_server.h"
#include "nri-plugin/syscalls.h"
#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare {
namespace {

using ::gcushare::kube::testing::ScriptedServer;
using ::gcushare::kube::testing::ServerTls;
using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::RunProcess;
using ::gcushare::testing::WriteFileOrDie;

constexpr char kOpenssl[] = "/usr/bin/openssl";

// Exit codes of the confined child.
constexpr int kCreateFailed = 10;
constexpr int kConfineFailed = 11;
constexpr int kGetFailed = 12;

bool MakeCertificate(const std::string& dir, const std::string& name) {
  auto result = RunProcess({kOpenssl, "req", "-x509", "-newkey", "rsa:2048",
                            "-nodes", "-keyout", dir + "/" + name + ".key",
                            "-out", dir + "/" + name + ".crt", "-days", "2",
                            "-subj", "/CN=" + name, "-addext",
                            "subjectAltName=IP:127.0.0.1,DNS:localhost"});
  return result.ok() && result->exit_code == 0;
}

struct Outcome {
  int exit_code = -1;
  std::string err;  // The child's stderr: the SIGSYS reporter's lines.
};

class KubeClientConfinedTest
    : public ::testing::TestWithParam<
          std::pair<const char*, std::function<SyscallAllowList()>>> {
 protected:
  void SetUp() override {
    if (access(kOpenssl, X_OK) != 0) {
      GTEST_SKIP() << kOpenssl << " is not installed";
    }
    ASSERT_TRUE(MakeCertificate(dir_, "server"));
    ASSERT_TRUE(MakeCertificate(dir_, "client"));
    WriteFileOrDie(dir_ + "/token", "secret-token\n");
    ServerTls tls;
    tls.cert_file = dir_ + "/server.crt";
    tls.key_file = dir_ + "/server.key";
    tls.client_ca_file = dir_ + "/client.crt";
    server_ = std::make_unique<ScriptedServer>(tls);
    server_->Handle("GET", "/api/v1/nodes/n1",
                    [](const httplib::Request& req, httplib::Response& res) {
                      const bool authorized =
                          req.get_header_value("Authorization") ==
                          "Bearer secret-token";
                      ScriptedServer::Json(res, authorized ? 200 : 401,
                                           R"({"metadata":{"name":"n1"}})");
                    });
    server_->Start();
  }

  // Forks a child that makes the client (as the daemons do, before they
  // confine themselves), confines itself to `allowed`, then reads a node.
  Outcome GetNodeConfined(const SyscallAllowList& allowed) {
    int err_pipe[2];
    EXPECT_EQ(pipe(err_pipe), 0);
    pid_t pid = fork();
    if (pid == 0) {
      dup2(err_pipe[1], STDERR_FILENO);
      close(err_pipe[0]);
      kube::ClientConfig config;
      // A name, not an address: getaddrinfo runs confined.
      config.server = "https://localhost:" + std::to_string(server_->port());
      config.tls.ca_file = dir_ + "/server.crt";
      config.tls.cert_file = dir_ + "/client.crt";
      config.tls.key_file = dir_ + "/client.key";
      config.token_file = dir_ + "/token";
      base::FakeClock clock;
      kube::KubeClientOptions options;
      options.clock = &clock;
      auto client = kube::CurlKubeClient::Create(config, options);
      if (!client.ok()) _exit(kCreateFailed);
      if (!ConfineToSyscalls(allowed).ok()) _exit(kConfineFailed);
      auto node = (*client)->Get(kube::Resource::Nodes(), "", "n1");
      _exit(node.ok() ? 0 : kGetFailed);
    }
    close(err_pipe[1]);
    Outcome outcome;
    char buf[512];
    for (ssize_t n; (n = read(err_pipe[0], buf, sizeof buf)) > 0;) {
      outcome.err.append(buf, static_cast<size_t>(n));
    }
    close(err_pipe[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
    return outcome;
  }

  const std::string dir_ = MakeTempDir();
  std::unique_ptr<ScriptedServer> server_;
};

TEST_P(KubeClientConfinedTest, ReadsANodeOverTlsByName) {
  Outcome outcome = GetNodeConfined(GetParam().second());
  EXPECT_EQ(outcome.err.find("seccomp: denied"), std::string::npos)
      << GetParam().first << ":\n"
      << outcome.err;
  EXPECT_EQ(outcome.exit_code, 0) << GetParam().first << ":\n" << outcome.err;
}

// The check can fail: without the kube client's calls the same read is
// denied, and says which call.
TEST_P(KubeClientConfinedTest, WithoutSocketsTheReadIsDeniedByName) {
  const SyscallAllowList full = GetParam().second();
  SyscallAllowList allowed;
  for (const std::string& name : full.any_args()) allowed.Allow(name);
  for (const auto& [name, values] : full.narrowed()) {
    if (name == "socket") continue;
    for (const auto& [index, value] : values) {
      allowed.AllowWithArg(name, index, value);
    }
  }
  Outcome outcome = GetNodeConfined(allowed);
  EXPECT_EQ(outcome.exit_code, kGetFailed) << outcome.err;
#if defined(__x86_64__)
  EXPECT_NE(outcome.err.find("seccomp: denied system call socket"),
            std::string::npos)
      << outcome.err;
#endif
}

INSTANTIATE_TEST_SUITE_P(
    EachDaemon, KubeClientConfinedTest,
    ::testing::Values(
        std::make_pair("extender", std::function(extender::ExtenderSyscalls)),
        std::make_pair("device-plugin", std::function<SyscallAllowList()>([] {
                         return deviceplugin::DevicePluginSyscalls(false);
                       })),
        std::make_pair("nri-plugin", std::function<SyscallAllowList()>([] {
                         return nri::NriPluginSyscalls(false);
                       })),
        std::make_pair("config-manager",
                       std::function(config_manager::ConfigManagerSyscalls))),
    [](const auto& info) {
      std::string name = info.param.first;
      for (char& c : name) {
        if (c == '-') c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace gcushare
