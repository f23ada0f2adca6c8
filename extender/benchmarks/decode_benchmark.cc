// How fast a list page of pods decodes (issue 17, ready time): 500 stand-in
// pods (extender/testing/scale_cluster.h: every third asks for GCU memory)
// as one PodList page, decoded
//   - whole: json::ParseJson, a full nlohmann DOM (the path before
//     json::ParsePruned);
//   - pruned: json::ParsePruned with the extender's PodFields() (simdjson
//     On-Demand; what the informers use), a parser per page;
//   - pruned+: the same with one json::PrunedParser for all pages (as
//     CurlKubeClient::ListEach reuses one for a list's pages).
// Then gzip (zlib, levels 1 and 6) of a 500-host prioritize answer and a
// 500-name filter answer: the CPU it would cost per answer against the
// bytes it would save (kube-scheduler sends Accept-Encoding: gzip).
// Then a filter body (a pod and 500 node names) decoded whole by
// json::ParseJson and by json::ParsePruned (extender/protocol.cc).
// Prints MB/s and microseconds per page and per item, on one thread.
//
//   bazel run -c opt //extender/benchmarks:decode_benchmark [-- --pages=N]
#include <zlib.h>

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

// A filter request as kube-scheduler sends it: a pod and 500 node names.
std::string FilterArgs() {
  testing::ScaleClusterSpec spec;
  std::mt19937 rng(spec.seed);
  nlohmann::json names = nlohmann::json::array();
  for (int i = 0; i < kPodsPerPage; ++i) {
    names.push_back(testing::ScaleNodeName(i * 7));
  }
  return nlohmann::json{{"Pod", testing::ScalePod(spec, 0, rng)},
                        {"Nodes", nullptr},
                        {"NodeNames", names}}
      .dump();
}

// `text` gzip-compressed at `level`; its size.
size_t Gzip(const std::string& text, int level) {
  z_stream z{};
  deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, text.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  const size_t size = z.total_out;
  deflateEnd(&z);
  return size;
}

void MeasureGzip(const char* what, const std::string& answer, int times) {
  for (int level : {1, 6}) {
    size_t size = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < times; ++i) size = Gzip(answer, level);
    const double us = std::chrono::duration<double, std::micro>(
                          std::chrono::steady_clock::now() - start)
                          .count() /
                      times;
    std::printf("gzip -%d %-22s %6zu -> %5zu bytes, %7.1f us an answer\n",
                level, what, answer.size(), size, us);
  }
}

double Run(const char* name, const std::string& page, int pages,
           const std::function<size_t()>& decode) {
  size_t kept = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < pages; ++i) kept += decode();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf("%-10s %8.1f MB/s %8.2f us/page %8.2f us/item (%zu items)\n",
              name, page.size() * static_cast<double>(pages) / seconds / 1e6,
              seconds / pages * 1e6, seconds / pages / kPodsPerPage * 1e6,
              kept / pages);
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
  std::string priorities = "[";
  std::string passed = "{\"Nodes\":null,\"NodeNames\":[";
  for (int i = 0; i < kPodsPerPage; ++i) {
    const std::string name = testing::ScaleNodeName(i * 7);
    priorities += std::string(i ? "," : "") + "{\"Host\":\"" + name +
                  "\",\"Score\":" + std::to_string(i % 100) + "}";
    passed += std::string(i ? "," : "") + "\"" + name + "\"";
  }
  priorities += "]";
  passed +=
      "],\"FailedNodes\":{},\"FailedAndUnresolvableNodes\":{},"
      "\"Error\":\"\"}";
  MeasureGzip("prioritize answer", priorities, pages * 25);
  MeasureGzip("filter answer", passed, pages * 25);

  // A filter body, decoded whole both ways (extender/protocol.cc).
  const std::string args = FilterArgs();
  std::printf("filter body: a pod and %d names, %zu bytes; %d bodies each\n",
              kPodsPerPage, args.size(), pages * 50);
  Run("whole", args, pages * 50,
      [&] { return json::ParseJson(args, "args")->at("NodeNames").size(); });
  Run("simdjson", args, pages * 50, [&] {
    return json::ParsePruned(args, json::FieldTree(), "args")
        ->at("NodeNames")
        .size();
  });
  return 0;
}

}  // namespace
}  // namespace gcushare::extender

int main(int argc, char** argv) { return gcushare::extender::Main(argc, argv); }
