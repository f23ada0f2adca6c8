// Where the API server is and how to authenticate to it: from a kubeconfig
// file (kubectl's format) or from the pod's service account (in-cluster).
//
// Supported kubeconfig fields: current-context (or an explicit context),
// contexts[].context.{cluster,user,namespace},
// clusters[].cluster.{server,certificate-authority,
// certificate-authority-data,insecure-skip-tls-verify},
// users[].user.{token,tokenFile,client-certificate,client-certificate-data,
// client-key,client-key-data}. Relative file paths resolve against the
// kubeconfig's directory. A "-data" field (base64 PEM) overrides the file
// field beside it; its bytes stay in memory (TlsConfig). Users that rely on
// exec or auth-provider plugins, or on basic auth, are rejected as
// Unimplemented.
//
// Failure: every error names the file and the field, e.g.
// "kubeconfig /root/.kube/config: users[name=admin].user.client-key-data:
// invalid base64 character at offset 12". Nothing throws.
// Thread-safety: pure functions over the file system.
#ifndef GCUSHARE_KUBE_CONFIG_H_
#define GCUSHARE_KUBE_CONFIG_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "kube/tls_config.h"
#include "status/status.h"

namespace YAML {
class Node;
}  // namespace YAML

namespace gcushare::kube {

inline constexpr std::string_view kDefaultServiceAccountDir =
    "/var/run/secrets/kubernetes.io/serviceaccount";

struct ClientConfig {
  // Base URL, e.g. "https://10.96.0.1:443", without a trailing slash; it may
  // carry a path prefix ("https://proxy/k8s/clusters/c1").
  std::string server;
  TlsConfig tls;
  // A fixed bearer token, and/or a file holding one. When token_file is set
  // it is re-read as it rotates and takes precedence once readable.
  std::string token;
  std::string token_file;
  // The context's (or service account's) namespace; "default" when unset.
  std::string namespace_name = "default";
  // Human-readable origin, for logs: "kubeconfig /path (context ctx)" or
  // "in-cluster".
  std::string source;
};

// Loads `path`. `context` overrides current-context when non-empty.
StatusOr<ClientConfig> LoadKubeconfig(const std::string& path,
                                      const std::string& context = "");

// LoadKubeconfig on `text` already read from `path` (which names it in
// errors and anchors relative file references); reads no file itself.
// InvalidArgument naming the field on any malformed input.
StatusOr<ClientConfig> ParseKubeconfig(std::string_view text,
                                       const std::string& path,
                                       const std::string& context = "");

// A kubeconfig's text parsed once, to read one context or several:
// ParseKubeconfig(text, path, context) is
// ParsedKubeconfig::Parse(text, path) then Read(context), with the same
// errors. Immutable after Parse; Read from one thread at a time (yaml-cpp's
// nodes share reference counts).
class ParsedKubeconfig {
 public:
  // `text` read from `path` (as for ParseKubeconfig). InvalidArgument when
  // it is not YAML or not a map.
  static StatusOr<ParsedKubeconfig> Parse(std::string_view text,
                                          const std::string& path);

  // The client configuration of `context` (current-context when empty).
  StatusOr<ClientConfig> Read(const std::string& context = "") const;

 private:
  ParsedKubeconfig(std::string path, std::shared_ptr<const YAML::Node> root)
      : path_(std::move(path)), root_(std::move(root)) {}

  std::string path_;
  std::shared_ptr<const YAML::Node> root_;  // A map.
};

// What in-cluster configuration reads; injectable for tests.
struct InClusterEnv {
  std::string host;  // $KUBERNETES_SERVICE_HOST
  std::string port;  // $KUBERNETES_SERVICE_PORT
  std::string service_account_dir = std::string(kDefaultServiceAccountDir);

  // From this process's environment.
  static InClusterEnv FromProcess();
};

// https://host:port (IPv6 hosts in brackets), the service account's token
// file (re-read as it rotates), ca.crt, and namespace (optional file,
// default "default"). FailedPrecondition "not running in a cluster ..." when
// the host or port is empty; NotFound naming the file when the token or CA
// is missing.
StatusOr<ClientConfig> InClusterConfig(const InClusterEnv& env);

// `kubeconfig_flag` non-empty: LoadKubeconfig(kubeconfig_flag, context);
// empty: InClusterConfig(InClusterEnv::FromProcess()).
StatusOr<ClientConfig> ResolveConfig(const std::string& kubeconfig_flag,
                                     const std::string& context = "");

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_CONFIG_H_
