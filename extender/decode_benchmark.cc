// How fast a list page of pods decodes (issue 17, ready time): 500 stand-in
// pods (extender/testing/scale_cluster.h: every third asks for GCU memory)
// as one PodList page, decoded
//   - whole: json::ParseJson, a full nlohmann DOM (the path before
//     json::ParsePruned);
//   - pruned: json::ParsePruned with the extender's PodFields() (simdjson
//     On-Demand; what the informers use), a parser per page;
//   - pruned+: the same with one json::PrunedParser for all pages (as
//     CurlKubeClient::ListEach reuses one for a list's pages).
// Prints MB/s and microseconds per pod for each, on one thread.
//
//   bazel run -c opt //extender:decode_benchmark [-- --pages=N]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "extender/cache_feed.h"
#include "extender/testing/scale_cluster.h"
#include "json/bounded_parse.h"
#include "json/pruned_parse.h"

namespace gcushare::extender {
namespace {

constexpr int kPodsPerPage = 500;

std::string Page() {
  testing::ScaleClusterSpec spec;
  std::mt19937 rng(spec.seed);
  nlohmann::json page = {{"kind", "PodList"},
                         {"apiVersion", "v1"},
                         {"metadata", {{"resourceVersion", "12345"}}},
                         {"items", nlohmann::json::array()}};
  for (int i = 0; i < kPodsPerPage; ++i) {
    page["items"].push_back(testing::ScalePod(spec, i, rng));
  }
  return page.dump();
}

double Run(const char* name, const std::string& page, int pages,
           const std::function<size_t()>& decode) {
  size_t kept = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < pages; ++i) kept += decode();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf("%-10s %8.1f MB/s %8.2f us/pod  (%zu items)\n", name,
              page.size() * static_cast<double>(pages) / seconds / 1e6,
              seconds / pages / kPodsPerPage * 1e6, kept / pages);
  return seconds;
}

int Main(int argc, char** argv) {
  int pages = 40;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--pages=", 8) == 0) {
      pages = std::atoi(argv[i] + 8);
    }
  }
  const std::string page = Page();
  std::printf("page: %d pods, %zu bytes (%zu a pod); %d pages each\n",
              kPodsPerPage, page.size(), page.size() / kPodsPerPage, pages);
  json::FieldTree page_fields;
  page_fields.Add({"metadata", "resourceVersion"})
      .Add({"metadata", "continue"})
      .AddTree({"items"}, PodFields());
  Run("whole", page, pages,
      [&] { return json::ParseJson(page, "page")->at("items").size(); });
  Run("pruned", page, pages, [&] {
    return json::ParsePruned(page, page_fields, "page")->at("items").size();
  });
  json::PrunedParser parser;  // As CurlKubeClient::ListEach, one a list.
  Run("pruned+", page, pages, [&] {
    return parser.Parse(page, page_fields, "page")->at("items").size();
  });
  return 0;
}

}  // namespace
}  // namespace gcushare::extender

int main(int argc, char** argv) { return gcushare::extender::Main(argc, argv); }
