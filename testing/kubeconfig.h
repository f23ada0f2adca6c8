// Test support: a kubeconfig for a stand-in API server on this machine.
//
// Not for production code. Thread-compatible.
#ifndef GCUSHARE_TESTING_KUBECONFIG_H_
#define GCUSHARE_TESTING_KUBECONFIG_H_

#include <string>

namespace gcushare::testing {

// Writes `<dir>/kubeconfig` for http://127.0.0.1:<port> (no credentials)
// and returns its path. Dies if it cannot be written.
std::string WriteKubeconfig(const std::string& dir, int port);

}  // namespace gcushare::testing

#endif  // GCUSHARE_TESTING_KUBECONFIG_H_
