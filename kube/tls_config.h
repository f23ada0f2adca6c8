// TLS settings for talking to the API server. Each PEM item is either a file
// path or the PEM bytes themselves (decoded from a kubeconfig "-data"
// field); the bytes are handed to libcurl as in-memory blobs and are never
// written to disk.
//
// A plain value type; thread-compatible.
#ifndef GCUSHARE_KUBE_TLS_CONFIG_H_
#define GCUSHARE_KUBE_TLS_CONFIG_H_

#include <string>

namespace gcushare::kube {

struct TlsConfig {
  // CA bundle that signs the server certificate. Both empty: the system
  // trust store.
  std::string ca_file;
  std::string ca_data;
  // Client certificate and key (mutual TLS); empty when not used.
  std::string cert_file;
  std::string cert_data;
  std::string key_file;
  std::string key_data;
  // Skip verification of the server certificate (kubeconfig
  // insecure-skip-tls-verify). Never the default.
  bool insecure_skip_verify = false;
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_TLS_CONFIG_H_
