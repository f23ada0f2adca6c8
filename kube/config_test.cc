#include "kube/config.h"

#include <gtest/gtest.h>

#include <string>

#include "testing/files.h"

namespace gcushare::kube {
namespace {

using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::WriteFileOrDie;

// base64 of "CA-PEM", "CERT-PEM", "KEY-PEM".
constexpr char kCaB64[] = "Q0EtUEVN";
constexpr char kCertB64[] = "Q0VSVC1QRU0=";
constexpr char kKeyB64[] = "S0VZLVBFTQ==";

class KubeconfigTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& yaml) {
    std::string path = dir_ + "/config";
    WriteFileOrDie(path, yaml);
    return path;
  }
  const std::string dir_ = MakeTempDir();
};

// A kubeconfig with two contexts; `user` is the body of user "u".
std::string TwoContexts(const std::string& cluster, const std::string& user) {
  return "apiVersion: v1\nkind: Config\ncurrent-context: main\n"
         "contexts:\n"
         "- name: main\n  context: {cluster: c, user: u, namespace: team}\n"
         "- name: other\n  context: {cluster: c2, user: u}\n"
         "clusters:\n"
         "- name: c\n  cluster:\n" +
         cluster +
         "- name: c2\n  cluster:\n    server: https://other:6443\n"
         "users:\n"
         "- name: u\n  user:\n" +
         user;
}

TEST_F(KubeconfigTest, InlineDataAndToken) {
  StatusOr<ClientConfig> config =
      LoadKubeconfig(Write(TwoContexts("    server: https://10.0.0.1:6443/\n"
                                       "    certificate-authority-data: " +
                                           std::string(kCaB64) + "\n",
                                       "    token: abc.def\n"
                                       "    client-certificate-data: " +
                                           std::string(kCertB64) +
                                           "\n"
                                           "    client-key-data: " +
                                           std::string(kKeyB64) + "\n")));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->server, "https://10.0.0.1:6443");
  EXPECT_EQ(config->tls.ca_data, "CA-PEM");
  EXPECT_EQ(config->tls.cert_data, "CERT-PEM");
  EXPECT_EQ(config->tls.key_data, "KEY-PEM");
  EXPECT_TRUE(config->tls.ca_file.empty());
  EXPECT_EQ(config->token, "abc.def");
  EXPECT_EQ(config->namespace_name, "team");
  EXPECT_FALSE(config->tls.insecure_skip_verify);
  EXPECT_NE(config->source.find("context main"), std::string::npos);
}

TEST_F(KubeconfigTest, RelativeFilesResolveAgainstTheKubeconfigDirectory) {
  WriteFileOrDie(dir_ + "/ca.crt", "CA");
  WriteFileOrDie(dir_ + "/client.crt", "CERT");
  WriteFileOrDie(dir_ + "/client.key", "KEY");
  WriteFileOrDie(dir_ + "/token", "tok\n");
  StatusOr<ClientConfig> config =
      LoadKubeconfig(Write(TwoContexts("    server: https://api:6443\n"
                                       "    certificate-authority: ca.crt\n",
                                       "    tokenFile: token\n"
                                       "    client-certificate: client.crt\n"
                                       "    client-key: " +
                                           dir_ + "/client.key\n")));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->tls.ca_file, dir_ + "/ca.crt");
  EXPECT_EQ(config->tls.cert_file, dir_ + "/client.crt");
  EXPECT_EQ(config->tls.key_file, dir_ + "/client.key");
  EXPECT_EQ(config->token_file, dir_ + "/token");
}

TEST_F(KubeconfigTest, DataOverridesFile) {
  StatusOr<ClientConfig> config = LoadKubeconfig(
      Write(TwoContexts("    server: https://api:6443\n"
                        "    certificate-authority: /does/not/exist\n"
                        "    certificate-authority-data: " +
                            std::string(kCaB64) + "\n",
                        "    token: t\n")));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->tls.ca_data, "CA-PEM");
  EXPECT_TRUE(config->tls.ca_file.empty());
}

TEST_F(KubeconfigTest, ExplicitContextOverridesCurrentContext) {
  StatusOr<ClientConfig> config =
      LoadKubeconfig(Write(TwoContexts("    server: https://api:6443\n"
                                       "    insecure-skip-tls-verify: true\n",
                                       "    token: t\n")),
                     "other");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->server, "https://other:6443");
  EXPECT_EQ(config->namespace_name, "default");
  EXPECT_FALSE(config->tls.insecure_skip_verify);

  StatusOr<ClientConfig> main =
      LoadKubeconfig(Write(TwoContexts("    server: https://api:6443\n"
                                       "    insecure-skip-tls-verify: true\n",
                                       "    token: t\n")));
  ASSERT_TRUE(main.ok());
  EXPECT_TRUE(main->tls.insecure_skip_verify);
}

TEST_F(KubeconfigTest, OneParseReadsSeveralContexts) {
  const std::string text = TwoContexts(
      "    server: https://api:6443\n    insecure-skip-tls-verify: true\n",
      "    token: t\n");
  StatusOr<ParsedKubeconfig> parsed =
      ParsedKubeconfig::Parse(text, "/etc/kube/config");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  StatusOr<ClientConfig> main = parsed->Read();
  ASSERT_TRUE(main.ok()) << main.status();
  EXPECT_EQ(main->server, "https://api:6443");
  EXPECT_EQ(main->namespace_name, "team");
  EXPECT_TRUE(main->tls.insecure_skip_verify);
  StatusOr<ClientConfig> other = parsed->Read("other");
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_EQ(other->server, "https://other:6443");
  EXPECT_EQ(other->source, "kubeconfig /etc/kube/config (context other)");
  EXPECT_FALSE(other->tls.insecure_skip_verify);
  // Reading did not change what the next read sees.
  StatusOr<ClientConfig> again = parsed->Read();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->server, main->server);
  StatusOr<ClientConfig> missing = parsed->Read("absent");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(),
            "kubeconfig /etc/kube/config: contexts[name=absent]: no contexts "
            "entry named \"absent\"");

  StatusOr<ParsedKubeconfig> list =
      ParsedKubeconfig::Parse("- a\n", "/etc/kube/config");
  EXPECT_EQ(list.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(list.status().message(),
            "kubeconfig /etc/kube/config: not a YAML map");
}

TEST_F(KubeconfigTest, ErrorsNameTheFileAndTheField) {
  struct Case {
    std::string name;
    std::string yaml;
    std::string context;
    StatusCode code;
    std::string field;
  };
  const std::string ok_cluster = "    server: https://api:6443\n";
  const std::vector<Case> cases = {
      {"no current context", "apiVersion: v1\nclusters: []\n", "",
       StatusCode::kInvalidArgument, "current-context: not set"},
      {"unknown context", TwoContexts(ok_cluster, "    token: t\n"), "nope",
       StatusCode::kNotFound, "contexts[name=nope]"},
      {"missing server",
       TwoContexts("    insecure-skip-tls-verify: true\n", "    token: t\n"),
       "", StatusCode::kInvalidArgument,
       "clusters[name=c].cluster.server: missing"},
      {"server not a URL",
       TwoContexts("    server: api:6443\n", "    token: t\n"), "",
       StatusCode::kInvalidArgument, "clusters[name=c].cluster.server"},
      {"bad base64",
       TwoContexts(ok_cluster,
                   "    client-certificate-data: " + std::string(kCertB64) +
                       "\n    client-key-data: '@@@'\n"),
       "", StatusCode::kInvalidArgument,
       "users[name=u].user.client-key-data: invalid base64"},
      {"unreadable CA file",
       TwoContexts(ok_cluster + "    certificate-authority: missing-ca.crt\n",
                   "    token: t\n"),
       "", StatusCode::kNotFound,
       "clusters[name=c].cluster.certificate-authority: cannot read"},
      {"certificate without key",
       TwoContexts(ok_cluster, "    client-certificate-data: " +
                                   std::string(kCertB64) + "\n"),
       "", StatusCode::kInvalidArgument, "users[name=u].user.client-key"},
      {"exec plugin", TwoContexts(ok_cluster, "    exec: {command: aws}\n"), "",
       StatusCode::kUnimplemented, "users[name=u].user.exec"},
      {"bad boolean",
       TwoContexts(ok_cluster + "    insecure-skip-tls-verify: maybe\n",
                   "    token: t\n"),
       "", StatusCode::kInvalidArgument,
       "clusters[name=c].cluster.insecure-skip-tls-verify: not a boolean"},
      {"unknown user",
       "current-context: x\ncontexts:\n- name: x\n  context: {cluster: c, "
       "user: ghost}\nclusters:\n- name: c\n  cluster: {server: "
       "'https://a'}\n",
       "", StatusCode::kNotFound, "users[name=ghost]"},
      {"not a map", "- just\n- a list\n", "", StatusCode::kInvalidArgument,
       "not a YAML map"},
      {"not YAML", "a: [unclosed\n", "", StatusCode::kInvalidArgument,
       "not valid YAML"},
  };
  for (const Case& c : cases) {
    const std::string path = Write(c.yaml);
    StatusOr<ClientConfig> config = LoadKubeconfig(path, c.context);
    ASSERT_FALSE(config.ok()) << c.name;
    EXPECT_EQ(config.status().code(), c.code)
        << c.name << ": " << config.status();
    EXPECT_NE(config.status().message().find("kubeconfig " + path),
              std::string::npos)
        << c.name << ": " << config.status();
    EXPECT_NE(config.status().message().find(c.field), std::string::npos)
        << c.name << ": " << config.status();
  }
}

TEST_F(KubeconfigTest, MissingFileIsNotFound) {
  StatusOr<ClientConfig> config = LoadKubeconfig(dir_ + "/absent");
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().code(), StatusCode::kNotFound);
  EXPECT_NE(config.status().message().find(dir_ + "/absent"),
            std::string::npos);
}

TEST_F(KubeconfigTest, ResolveConfigUsesTheFlagWhenSet) {
  StatusOr<ClientConfig> config = ResolveConfig(
      Write(TwoContexts("    server: https://api:6443\n", "    token: t\n")));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->server, "https://api:6443");
}

class InClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFileOrDie(dir_ + "/token", "sa-token\n");
    WriteFileOrDie(dir_ + "/ca.crt", "CA");
    WriteFileOrDie(dir_ + "/namespace", "gcushare-system");
  }
  InClusterEnv Env(const std::string& host, const std::string& port) {
    InClusterEnv env;
    env.host = host;
    env.port = port;
    env.service_account_dir = dir_;
    return env;
  }
  const std::string dir_ = MakeTempDir();
};

TEST_F(InClusterTest, ReadsTheServiceAccount) {
  StatusOr<ClientConfig> config = InClusterConfig(Env("10.96.0.1", "443"));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->server, "https://10.96.0.1:443");
  EXPECT_EQ(config->token, "sa-token");
  EXPECT_EQ(config->token_file, dir_ + "/token");
  EXPECT_EQ(config->tls.ca_file, dir_ + "/ca.crt");
  EXPECT_EQ(config->namespace_name, "gcushare-system");
  EXPECT_EQ(config->source, "in-cluster");
}

TEST_F(InClusterTest, BracketsIpv6Hosts) {
  StatusOr<ClientConfig> config = InClusterConfig(Env("fd00::1", "6443"));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->server, "https://[fd00::1]:6443");
}

TEST_F(InClusterTest, NotInClusterWhenTheEnvironmentIsMissing) {
  for (const auto& [host, port] :
       std::vector<std::pair<std::string, std::string>>{
           {"", "443"}, {"10.96.0.1", ""}, {"", ""}}) {
    StatusOr<ClientConfig> config = InClusterConfig(Env(host, port));
    ASSERT_FALSE(config.ok());
    EXPECT_EQ(config.status().code(), StatusCode::kFailedPrecondition);
    EXPECT_NE(config.status().message().find("not running in a cluster"),
              std::string::npos);
  }
}

TEST_F(InClusterTest, MissingTokenOrCaNamesTheFile) {
  std::remove((dir_ + "/token").c_str());
  StatusOr<ClientConfig> no_token = InClusterConfig(Env("10.96.0.1", "443"));
  ASSERT_FALSE(no_token.ok());
  EXPECT_NE(no_token.status().message().find(dir_ + "/token"),
            std::string::npos);

  WriteFileOrDie(dir_ + "/token", "t");
  std::remove((dir_ + "/ca.crt").c_str());
  StatusOr<ClientConfig> no_ca = InClusterConfig(Env("10.96.0.1", "443"));
  ASSERT_FALSE(no_ca.ok());
  EXPECT_NE(no_ca.status().message().find(dir_ + "/ca.crt"), std::string::npos);
}

TEST_F(InClusterTest, NamespaceDefaultsToDefault) {
  std::remove((dir_ + "/namespace").c_str());
  StatusOr<ClientConfig> config = InClusterConfig(Env("10.96.0.1", "443"));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->namespace_name, "default");
}

TEST_F(KubeconfigTest, DeepNestingIsAnErrorNotACrash) {
  std::string path = Write("clusters: " + std::string(200000, '{') +
                           std::string(200000, '}') + "\n");
  StatusOr<ClientConfig> config = LoadKubeconfig(path, "");
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("nested deeper than 256"),
            std::string::npos)
      << config.status();
}

}  // namespace
}  // namespace gcushare::kube
