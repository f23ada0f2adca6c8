// kubectl-inspect-gcushare: a kubectl plugin (`kubectl inspect-gcushare`)
// that prints the GCUShare extender's /inspect as a table: per node and
// card, memory used/total, free, and the pods on it.
//
//   svc=svc/gcushare-scheduler-extender
//   kubectl -n kube-system port-forward "$svc" 32766:32766 &
//   kubectl inspect-gcushare            # every node
//   kubectl inspect-gcushare node-a     # one node
//   kubectl inspect-gcushare -o json    # the extender's JSON, keys in its
//   order
//
// Exit codes: 0 printed, 1 the extender could not be reached or answered
// badly (message on stderr), 2 bad flags.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "daemon/flags.h"
#include "daemon/version.h"
#include "kube/curl_http_client.h"
#include "kubectl-plugin/inspect_fetch.h"
#include "kubectl-plugin/inspect_report.h"
#include "kubectl-plugin/inspect_table.h"

namespace gcushare::kubectl_plugin {
namespace {

constexpr char kProgram[] = "kubectl-inspect-gcushare";

int Run(int argc, char** argv) {
  CLI::App app{
      "Shows how GCUShare shares the cards: per node and card the memory "
      "used and free and the pods using it, from the scheduler extender's "
      "/inspect. Reach the extender with `kubectl -n <namespace> "
      "port-forward svc/gcushare-scheduler-extender 32766:32766` (the "
      "default URL), or `kubectl proxy` and --extender-url=http://"
      "127.0.0.1:8001/api/v1/namespaces/<namespace>/services/"
      "gcushare-scheduler-extender:32766/proxy."};
  SetUpApp(app, kProgram);
  std::string node;
  std::string url = "http://127.0.0.1:32766";
  std::string output = "table";
  bool pods = true;
  int timeout_seconds = 10;
  app.add_option("node", node, "only this node (default: every node)");
  app.add_option("--extender-url", url,
                 "the extender's base URL (its /gcushare-scheduler prefix is "
                 "added unless present); also from $GCUSHARE_EXTENDER_URL")
      ->envname("GCUSHARE_EXTENDER_URL")
      ->capture_default_str();
  app.add_option("-o,--output", output, "table, or json (the extender's JSON)")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  app.add_flag("--pods,!--no-pods", pods,
               "list each card's pods (false: only their number)")
      ->capture_default_str();
  app.add_option("--timeout", timeout_seconds,
                 "seconds to wait for the extender")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  if (auto code = ParseFlags(app, argc, argv)) return *code;

  kube::CurlHttpClientOptions http;
  http.user_agent = std::string(kProgram) + "/" + std::string(Version());
  http.connect_timeout = std::chrono::seconds(timeout_seconds);
  kube::CurlHttpClient client(kube::TlsConfig{}, http);
  auto body =
      FetchInspect(&client, url, node, std::chrono::seconds(timeout_seconds));
  if (!body.ok()) {
    std::cerr << kProgram << ": " << body.status().message() << "\n";
    return 1;
  }
  auto nodes = ParseInspect(*body);
  if (!nodes.ok()) {
    std::cerr << kProgram << ": " << nodes.status().message() << "\n";
    return 1;
  }
  if (output == "json") {
    std::cout << nlohmann::ordered_json::parse(*body).dump(2) << "\n";
  } else {
    TableOptions options;
    options.show_pods = pods;
    std::cout << FormatTable(*nodes, options);
  }
  std::cout.flush();
  return std::cout ? 0 : 1;
}

}  // namespace
}  // namespace gcushare::kubectl_plugin

int main(int argc, char** argv) {
  return gcushare::kubectl_plugin::Run(argc, argv);
}
