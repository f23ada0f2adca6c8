#include "kube/config.h"

#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "base/base64.h"
#include "json/bounded_parse.h"

namespace gcushare::kube {
namespace {

// Reads a whole file; NotFound/PermissionDenied naming it.
StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return ErrnoToStatus(errno, path);
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) return ErrnoToStatus(errno, path);
  return contents.str();
}

std::string TrimWhitespace(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return "";
  const auto end = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(begin, end - begin + 1));
}

// Reads one kubeconfig: holds the file name for error messages.
class KubeconfigReader {
 public:
  KubeconfigReader(std::string path, const YAML::Node& root)
      : path_(std::move(path)),
        dir_(std::filesystem::path(path_).parent_path().string()),
        root_(root) {}

  StatusOr<ClientConfig> Read(const std::string& context_override) {
    std::string context_name = context_override;
    if (context_name.empty()) {
      GCUSHARE_RETURN_IF_ERROR(
          Scalar(root_, "current-context", "current-context", &context_name));
      if (context_name.empty()) {
        return Error(InvalidArgumentError,
                     "current-context: not set and no context given");
      }
    }
    const std::string context_field = "contexts[name=" + context_name + "]";
    GCUSHARE_ASSIGN_OR_RETURN(
        YAML::Node context,
        FindNamed("contexts", "context", context_name, context_field));

    ClientConfig config;
    config.source = "kubeconfig " + path_ + " (context " + context_name + ")";
    std::string cluster_name;
    std::string user_name;
    std::string namespace_name;
    GCUSHARE_RETURN_IF_ERROR(Scalar(
        context, "cluster", context_field + ".context.cluster", &cluster_name));
    GCUSHARE_RETURN_IF_ERROR(
        Scalar(context, "user", context_field + ".context.user", &user_name));
    GCUSHARE_RETURN_IF_ERROR(Scalar(context, "namespace",
                                    context_field + ".context.namespace",
                                    &namespace_name));
    if (!namespace_name.empty()) config.namespace_name = namespace_name;
    if (cluster_name.empty()) {
      return Error(InvalidArgumentError,
                   context_field + ".context.cluster: missing");
    }
    GCUSHARE_RETURN_IF_ERROR(ReadCluster(cluster_name, &config));
    if (!user_name.empty())
      GCUSHARE_RETURN_IF_ERROR(ReadUser(user_name, &config));
    return config;
  }

 private:
  Status ReadCluster(const std::string& name, ClientConfig* config) {
    const std::string field = "clusters[name=" + name + "].cluster";
    GCUSHARE_ASSIGN_OR_RETURN(YAML::Node cluster,
                              FindNamed("clusters", "cluster", name, field));
    GCUSHARE_RETURN_IF_ERROR(
        Scalar(cluster, "server", field + ".server", &config->server));
    if (config->server.empty()) {
      return Error(InvalidArgumentError, field + ".server: missing");
    }
    if (config->server.rfind("https://", 0) != 0 &&
        config->server.rfind("http://", 0) != 0) {
      return Error(InvalidArgumentError,
                   field + ".server: \"" + config->server +
                       "\" is not an http:// or https:// URL");
    }
    while (config->server.back() == '/') config->server.pop_back();
    GCUSHARE_RETURN_IF_ERROR(Bool(cluster, "insecure-skip-tls-verify",
                                  field + ".insecure-skip-tls-verify",
                                  &config->tls.insecure_skip_verify));
    return PemPair(cluster, "certificate-authority", field,
                   &config->tls.ca_file, &config->tls.ca_data);
  }

  Status ReadUser(const std::string& name, ClientConfig* config) {
    const std::string field = "users[name=" + name + "].user";
    GCUSHARE_ASSIGN_OR_RETURN(YAML::Node user,
                              FindNamed("users", "user", name, field));
    for (const char* unsupported : {"exec", "auth-provider"}) {
      if (user[unsupported]) {
        return Error(UnimplementedError, field + "." + unsupported +
                                             ": credential plugins are not "
                                             "supported; use a token or a "
                                             "client certificate");
      }
    }
    std::string username;
    GCUSHARE_RETURN_IF_ERROR(
        Scalar(user, "username", field + ".username", &username));
    if (!username.empty()) {
      return Error(UnimplementedError,
                   field + ".username: basic authentication is not supported");
    }
    GCUSHARE_RETURN_IF_ERROR(
        Scalar(user, "token", field + ".token", &config->token));
    GCUSHARE_RETURN_IF_ERROR(
        Scalar(user, "tokenFile", field + ".tokenFile", &config->token_file));
    if (!config->token_file.empty()) {
      config->token_file = Resolve(config->token_file);
      if (access(config->token_file.c_str(), R_OK) != 0) {
        return Error(NotFoundError,
                     field + ".tokenFile: cannot read " + config->token_file);
      }
    }
    GCUSHARE_RETURN_IF_ERROR(PemPair(user, "client-certificate", field,
                                     &config->tls.cert_file,
                                     &config->tls.cert_data));
    GCUSHARE_RETURN_IF_ERROR(PemPair(user, "client-key", field,
                                     &config->tls.key_file,
                                     &config->tls.key_data));
    const bool has_cert =
        !config->tls.cert_file.empty() || !config->tls.cert_data.empty();
    const bool has_key =
        !config->tls.key_file.empty() || !config->tls.key_data.empty();
    if (has_cert != has_key) {
      return Error(InvalidArgumentError,
                   field + (has_cert ? ".client-key" : ".client-certificate") +
                       ": missing (client-certificate and client-key go "
                       "together)");
    }
    return OkStatus();
  }

  // `<base>` (a path) and `<base>-data` (base64 PEM, wins when present).
  Status PemPair(const YAML::Node& node, const std::string& base,
                 const std::string& field, std::string* file,
                 std::string* data) {
    std::string encoded;
    GCUSHARE_RETURN_IF_ERROR(
        Scalar(node, base + "-data", field + "." + base + "-data", &encoded));
    if (!encoded.empty()) {
      StatusOr<std::string> decoded = base::Base64Decode(encoded);
      if (!decoded.ok()) {
        return Error(InvalidArgumentError, field + "." + base + "-data: " +
                                               decoded.status().message());
      }
      if (decoded->empty()) {
        return Error(InvalidArgumentError,
                     field + "." + base + "-data: decodes to nothing");
      }
      *data = std::move(decoded).value();
      return OkStatus();
    }
    std::string path;
    GCUSHARE_RETURN_IF_ERROR(Scalar(node, base, field + "." + base, &path));
    if (path.empty()) return OkStatus();
    *file = Resolve(path);
    if (access(file->c_str(), R_OK) != 0) {
      return Error(NotFoundError,
                   field + "." + base + ": cannot read " + *file);
    }
    return OkStatus();
  }

  // The `inner` map of the entry of list `list` whose name is `name`.
  StatusOr<YAML::Node> FindNamed(const std::string& list,
                                 const std::string& inner,
                                 const std::string& name,
                                 const std::string& field) {
    const YAML::Node entries = root_[list];
    if (entries && !entries.IsSequence()) {
      return Error(InvalidArgumentError, list + ": not a list");
    }
    if (entries) {
      for (const YAML::Node& entry : entries) {
        if (!entry.IsMap()) continue;
        const YAML::Node entry_name = entry["name"];
        if (!entry_name || !entry_name.IsScalar() ||
            entry_name.Scalar() != name) {
          continue;
        }
        const YAML::Node body = entry[inner];
        if (!body || body.IsNull()) return YAML::Node(YAML::NodeType::Map);
        if (!body.IsMap()) {
          return Error(InvalidArgumentError, field + ": not a map");
        }
        return body;
      }
    }
    return Error(NotFoundError,
                 field + ": no " + list + " entry named \"" + name + "\"");
  }

  // A string field; absent or null leaves *out unchanged.
  Status Scalar(const YAML::Node& node, const std::string& key,
                const std::string& field, std::string* out) {
    const YAML::Node value = node[key];
    if (!value || value.IsNull()) return OkStatus();
    if (!value.IsScalar()) {
      return Error(InvalidArgumentError, field + ": not a string");
    }
    *out = value.Scalar();
    return OkStatus();
  }

  Status Bool(const YAML::Node& node, const std::string& key,
              const std::string& field, bool* out) {
    const YAML::Node value = node[key];
    if (!value || value.IsNull()) return OkStatus();
    bool parsed = false;
    if (!value.IsScalar() || !YAML::convert<bool>::decode(value, parsed)) {
      return Error(InvalidArgumentError, field + ": not a boolean");
    }
    *out = parsed;
    return OkStatus();
  }

  std::string Resolve(const std::string& path) const {
    if (path.empty() || path.front() == '/' || dir_.empty()) return path;
    return (std::filesystem::path(dir_) / path).string();
  }

  Status Error(Status (*make)(std::string), const std::string& what) const {
    return make("kubeconfig " + path_ + ": " + what);
  }

  std::string path_;
  std::string dir_;
  const YAML::Node root_;
};

}  // namespace

StatusOr<ClientConfig> LoadKubeconfig(const std::string& path,
                                      const std::string& context) {
  GCUSHARE_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path));
  return ParseKubeconfig(text, path, context);
}

StatusOr<ClientConfig> ParseKubeconfig(std::string_view text,
                                       const std::string& path,
                                       const std::string& context) {
  GCUSHARE_ASSIGN_OR_RETURN(ParsedKubeconfig parsed,
                            ParsedKubeconfig::Parse(text, path));
  return parsed.Read(context);
}

StatusOr<ParsedKubeconfig> ParsedKubeconfig::Parse(std::string_view text,
                                                   const std::string& path) {
  GCUSHARE_RETURN_IF_ERROR(json::CheckYamlDepth(text, "kubeconfig " + path));
  std::shared_ptr<const YAML::Node> root;
  try {
    root = std::make_shared<const YAML::Node>(YAML::Load(std::string(text)));
  } catch (const YAML::Exception& e) {
    return InvalidArgumentError("kubeconfig " + path +
                                ": not valid YAML: " + e.what());
  }
  if (!root->IsMap()) {
    return InvalidArgumentError("kubeconfig " + path + ": not a YAML map");
  }
  return ParsedKubeconfig(path, std::move(root));
}

StatusOr<ClientConfig> ParsedKubeconfig::Read(
    const std::string& context) const {
  try {
    return KubeconfigReader(path_, *root_).Read(context);
  } catch (const YAML::Exception& e) {
    // yaml-cpp throws on shapes we did not anticipate.
    return InvalidArgumentError("kubeconfig " + path_ + ": " + e.what());
  }
}

InClusterEnv InClusterEnv::FromProcess() {
  InClusterEnv env;
  if (const char* host = std::getenv("KUBERNETES_SERVICE_HOST")) {
    env.host = host;
  }
  if (const char* port = std::getenv("KUBERNETES_SERVICE_PORT")) {
    env.port = port;
  }
  return env;
}

StatusOr<ClientConfig> InClusterConfig(const InClusterEnv& env) {
  if (env.host.empty() || env.port.empty()) {
    return FailedPreconditionError(
        "not running in a cluster: KUBERNETES_SERVICE_HOST and "
        "KUBERNETES_SERVICE_PORT must both be set (or pass --kubeconfig)");
  }
  ClientConfig config;
  config.source = "in-cluster";
  const bool ipv6 =
      env.host.find(':') != std::string::npos && env.host.front() != '[';
  config.server =
      "https://" + (ipv6 ? "[" + env.host + "]" : env.host) + ":" + env.port;
  const std::filesystem::path dir(env.service_account_dir);
  config.token_file = (dir / "token").string();
  StatusOr<std::string> token = ReadWholeFile(config.token_file);
  if (!token.ok()) {
    return NotFoundError("in-cluster service account token: " +
                         token.status().message());
  }
  if (TrimWhitespace(*token).empty()) {
    return NotFoundError(
        "in-cluster service account token: " + config.token_file + " is empty");
  }
  config.token = TrimWhitespace(*token);
  config.tls.ca_file = (dir / "ca.crt").string();
  if (access(config.tls.ca_file.c_str(), R_OK) != 0) {
    return NotFoundError("in-cluster CA bundle: cannot read " +
                         config.tls.ca_file);
  }
  StatusOr<std::string> namespace_name =
      ReadWholeFile((dir / "namespace").string());
  if (namespace_name.ok() && !TrimWhitespace(*namespace_name).empty()) {
    config.namespace_name = TrimWhitespace(*namespace_name);
  }
  return config;
}

StatusOr<ClientConfig> ResolveConfig(const std::string& kubeconfig_flag,
                                     const std::string& context) {
  if (!kubeconfig_flag.empty()) return LoadKubeconfig(kubeconfig_flag, context);
  return InClusterConfig(InClusterEnv::FromProcess());
}

}  // namespace gcushare::kube
