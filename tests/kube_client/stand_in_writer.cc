#include "tests/kube_client/stand_in_writer.h"

#include <httplib.h>

#include <utility>

namespace gcushare::kube_client_test {
namespace {

std::string PodsPath(const std::string& ns) {
  return "/api/v1/namespaces/" + ns + "/pods";
}

}  // namespace

StatusOr<nlohmann::json> StandInWriter::Send(const std::string& method,
                                             const std::string& path,
                                             const std::string& body,
                                             const std::string& content_type,
                                             int expected_status) {
  httplib::Client client("127.0.0.1", port_);
  client.set_read_timeout(30, 0);
  httplib::Headers headers;
  if (!token_.empty()) headers.emplace("Authorization", "Bearer " + token_);
  auto send = [&]() -> httplib::Result {
    if (method == "POST") {
      return client.Post(path.c_str(), headers, body, content_type.c_str());
    }
    if (method == "PATCH") {
      return client.Patch(path.c_str(), headers, body, content_type.c_str());
    }
    if (method == "DELETE") return client.Delete(path.c_str(), headers);
    return client.Get(path.c_str(), headers);
  };
  httplib::Result result = send();
  const int status = result ? result->status : 0;
  const std::string response_body = result ? result->body : "";
  nlohmann::json parsed =
      nlohmann::json::parse(response_body, nullptr, /*allow_exceptions=*/false);
  if (status != expected_status || parsed.is_discarded()) {
    return InternalError(method + " " + path + ": HTTP " +
                         std::to_string(status) + ": " + response_body);
  }
  return parsed;
}

StatusOr<nlohmann::json> StandInWriter::CreatePod(
    const std::string& ns, const std::string& name,
    const nlohmann::json& labels, const nlohmann::json& annotations) {
  nlohmann::json pod = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata",
       {{"name", name}, {"labels", labels}, {"annotations", annotations}}},
      {"spec",
       {{"containers", nlohmann::json::array(
                           {{{"name", "main"}, {"image", "busybox:1"}}})}}}};
  return Send("POST", PodsPath(ns), pod.dump(), "application/json", 201);
}

StatusOr<nlohmann::json> StandInWriter::MergePatchPod(
    const std::string& ns, const std::string& name,
    const nlohmann::json& patch) {
  return Send("PATCH", PodsPath(ns) + "/" + name, patch.dump(),
              "application/merge-patch+json", 200);
}

StatusOr<nlohmann::json> StandInWriter::DeletePod(const std::string& ns,
                                                  const std::string& name) {
  return Send("DELETE", PodsPath(ns) + "/" + name, "", "", 200);
}

StatusOr<nlohmann::json> StandInWriter::GetPod(const std::string& ns,
                                               const std::string& name) {
  return Send("GET", PodsPath(ns) + "/" + name, "", "", 200);
}

StatusOr<nlohmann::json> StandInWriter::ListPods(const std::string& ns) {
  return Send("GET", PodsPath(ns), "", "", 200);
}

StatusOr<nlohmann::json> StandInWriter::CreateNode(const std::string& name) {
  nlohmann::json node = {
      {"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", name}}}};
  return Send("POST", "/api/v1/nodes", node.dump(), "application/json", 201);
}

}  // namespace gcushare::kube_client_test
