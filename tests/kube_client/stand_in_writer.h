// Test support: changes the stand-in API server's pods and nodes over plain
// HTTP with cpp-httplib, independently of the Kubernetes client under test,
// so that a test's setup never depends on the code it checks.
//
// Failure: every call returns the server's object on the expected status,
// else an Internal error carrying the method, path, status and body (status
// 0: no response). Nothing throws.
// Thread-safety: safe for concurrent calls (a new connection per request).
#ifndef GCUSHARE_TESTS_KUBE_CLIENT_STAND_IN_WRITER_H_
#define GCUSHARE_TESTS_KUBE_CLIENT_STAND_IN_WRITER_H_

#include <nlohmann/json.hpp>
#include <string>

#include "status/status.h"

namespace gcushare::kube_client_test {

class StandInWriter {
 public:
  // `token` empty: no Authorization header.
  explicit StandInWriter(int port, std::string token = "")
      : port_(port), token_(std::move(token)) {}

  void set_token(std::string token) { token_ = std::move(token); }

  // POSTs a pod (one busybox container) with these labels and annotations.
  StatusOr<nlohmann::json> CreatePod(
      const std::string& ns, const std::string& name,
      const nlohmann::json& labels = nlohmann::json::object(),
      const nlohmann::json& annotations = nlohmann::json::object());
  // A JSON merge patch (RFC 7386) of the pod.
  StatusOr<nlohmann::json> MergePatchPod(const std::string& ns,
                                         const std::string& name,
                                         const nlohmann::json& patch);
  // Returns the pod's last state.
  StatusOr<nlohmann::json> DeletePod(const std::string& ns,
                                     const std::string& name);
  StatusOr<nlohmann::json> GetPod(const std::string& ns,
                                  const std::string& name);
  // The PodList of `ns`.
  StatusOr<nlohmann::json> ListPods(const std::string& ns);
  StatusOr<nlohmann::json> CreateNode(const std::string& name);

 private:
  StatusOr<nlohmann::json> Send(const std::string& method,
                                const std::string& path,
                                const std::string& body,
                                const std::string& content_type,
                                int expected_status);

  const int port_;
  std::string token_;
};

}  // namespace gcushare::kube_client_test

#endif  // GCUSHARE_TESTS_KUBE_CLIENT_STAND_IN_WRITER_H_
