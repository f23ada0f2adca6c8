// A malformed or deeply nested watch line amid real traffic. The stand-in never
// sends one, so a relay (built on kube/testing's scripted server) passes the
// stand-in's responses through and slips one bad line into a watch stream.
//
// kube/ already checks the same against a fully scripted server
// (curl_kube_client_test WatchMalformedLineIsDataLoss, informer_test
// MalformedLineIsLoggedAndTheWatchRecovers); these are the end-to-end
// variants: real lists, real resourceVersions, a real resumed watch.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kube/curl_kube_client.h"
#include "kube/informer.h"
#include "kube/json_fields.h"
#include "kube/testing/recording_handler.h"
#include "tests/kube_client/stand_in_writer.h"
#include "tests/kube_client/test_clients.h"
#include "tests/kube_client/watch_tampering_relay.h"
#include "tests/peers/apiserver/testing/apiserver_process.h"

namespace gcushare::kube_client_test {
namespace {

using ::gcushare::apiserver::testing::ApiserverProcess;
using ::gcushare::kube::Informer;
using ::gcushare::kube::NameOf;
using ::gcushare::kube::Resource;
using ::gcushare::kube::ResourceVersionOf;
using ::gcushare::kube::testing::RecordedRequest;
using ::gcushare::kube::testing::RecordingHandler;

// A bad line slipped into a watch, and what the error must say about it.
struct BadLine {
  const char* name;
  std::string line;
  const char* why;
};

void PrintTo(const BadLine& bad, std::ostream* os) { *os << bad.name; }

std::vector<BadLine> BadLines() {
  return {
      {"Malformed", "{\"type\":\"MODIFIED\",\"object\":{\"metadata\"::}}\n",
       "not valid JSON"},
      // 400 KB nested 200,000 deep: parsed, it would overflow the stack.
      {"DeeplyNested",
       "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"name\":\"p1\"},"
       "\"spec\":" +
           std::string(200000, '[') + std::string(200000, ']') + "}}\n",
       "nested deeper than 100 levels"},
  };
}

std::string Rv(const StatusOr<nlohmann::json>& object) {
  return object.ok() ? ResourceVersionOf(*object) : "<error>";
}

class MalformedWatchTest : public ::testing::TestWithParam<BadLine> {
 protected:
  void SetUp() override {
    // No bookmarks: the lines of a watch are exactly the changes.
    ASSERT_TRUE(apiserver_.Start().ok()) << apiserver_.output();
    writer_ = std::make_unique<StandInWriter>(apiserver_.port());
    relay_ = std::make_unique<WatchTamperingRelay>(apiserver_.port());
    relay_->Start();
    auto client = NewClient(relay_->url());
    ASSERT_TRUE(client.ok()) << client.status();
    client_ = std::move(*client);
  }
  void TearDown() override {
    client_.reset();  // Closes its kept-alive connections.
    // The stand-in first: it ends the watches the relay is pumping.
    EXPECT_TRUE(apiserver_.Stop().ok()) << apiserver_.output();
    relay_->Stop();
  }

  ApiserverProcess apiserver_{{"--bookmark-interval=3600000"}};
  std::unique_ptr<StandInWriter> writer_;
  std::unique_ptr<WatchTamperingRelay> relay_;
  std::unique_ptr<kube::CurlKubeClient> client_;
};

TEST_P(MalformedWatchTest, WatchReturnsDataLossAfterTheGoodEvents) {
  ASSERT_TRUE(writer_->CreatePod("mal", "p1").ok());
  auto list = client_->List(Resource::Pods(), "mal", {});
  ASSERT_TRUE(list.ok()) << list.status();
  auto p2 = writer_->CreatePod("mal", "p2");
  auto p3 = writer_->CreatePod("mal", "p3");
  ASSERT_TRUE(p2.ok() && p3.ok());
  relay_->TamperWithNextWatch(GetParam().line, 1);

  kube::WatchOptions options;
  options.resource_version = list->resource_version;
  options.timeout_seconds = 20;  // Ends the test should the line be skipped.
  std::vector<std::string> events;
  Status status = client_->Watch(
      Resource::Pods(), "mal", options, [&](const kube::WatchEvent& event) {
        std::string line(kube::WatchEventTypeName(event.type));
        line += " ";
        line += NameOf(event.object);
        line += "@";
        line += ResourceVersionOf(event.object);
        events.push_back(std::move(line));
      });
  EXPECT_EQ(status.code(), StatusCode::kDataLoss) << status;
  EXPECT_NE(status.message().find(std::string("malformed watch event (") +
                                  GetParam().why + ")"),
            std::string::npos)
      << status.message().substr(0, 300);
  EXPECT_NE(status.message().find("{\"type\":\"MODIFIED\",\"object\":{\"meta"),
            std::string::npos)
      << status.message().substr(0, 300);
  // The event before the bad line was delivered; nothing after it was.
  EXPECT_EQ(events, std::vector<std::string>{"ADDED p2@" + Rv(p2)});
}

TEST_P(MalformedWatchTest, InformerResumesAndEndsWithTheServersState) {
  auto p1 = writer_->CreatePod("mal", "p1");
  ASSERT_TRUE(p1.ok());
  relay_->TamperWithNextWatch(GetParam().line, 1);
  RecordingHandler handler;
  Informer informer(client_.get(), Resource::Pods(), "mal", &handler,
                    FastInformerOptions());
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(std::chrono::seconds(30)));
  const std::string listed_rv = informer.resource_version();

  // The first watch relays p2, then the bad line; p3 and the update of p1
  // travel behind it on that stream and must come again on the next one.
  auto p2 = writer_->CreatePod("mal", "p2");
  auto p3 = writer_->CreatePod("mal", "p3");
  auto p1_updated = writer_->MergePatchPod(
      "mal", "p1", {{"metadata", {{"labels", {{"v", "2"}}}}}});
  ASSERT_TRUE(p2.ok() && p3.ok() && p1_updated.ok());
  ASSERT_TRUE(handler.WaitForLog(4)) << ::testing::PrintToString(handler.log());
  EXPECT_EQ(handler.log(),
            (std::vector<std::string>{
                "add p1@" + Rv(p1), "add p2@" + Rv(p2), "add p3@" + Rv(p3),
                "update p1@" + Rv(p1) + "->" + Rv(p1_updated)}));

  // It re-watched from the last good event rather than relisting.
  std::vector<std::string> watched_from;
  for (const RecordedRequest& request : relay_->server().requests()) {
    if (request.Param("watch") == "true") {
      watched_from.push_back(request.Param("resourceVersion"));
    }
  }
  ASSERT_GE(watched_from.size(), 2u);
  EXPECT_EQ(watched_from[0], listed_rv);
  EXPECT_EQ(watched_from[1], Rv(p2));
  EXPECT_EQ(informer.lists(), 1u);

  auto server_list = writer_->ListPods("mal");
  ASSERT_TRUE(server_list.ok());
  std::map<std::string, std::string> server_pods;
  for (const nlohmann::json& item : (*server_list)["items"]) {
    server_pods[NameOf(item)] = ResourceVersionOf(item);
  }
  std::map<std::string, std::string> stored;
  for (const Informer::ObjectPtr& object : informer.Snapshot()) {
    stored[NameOf(*object)] = ResourceVersionOf(*object);
  }
  EXPECT_EQ(stored, server_pods);
  EXPECT_EQ(handler.cache(), server_pods);
  informer.Stop();
}

INSTANTIATE_TEST_SUITE_P(BadLines, MalformedWatchTest,
                         ::testing::ValuesIn(BadLines()),
                         [](const ::testing::TestParamInfo<BadLine>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace gcushare::kube_client_test
