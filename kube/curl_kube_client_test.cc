#include "kube/curl_kube_client.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <vector>

#include "base/testing/fake_clock.h"
#include "json/field_tree.h"
#include "kube/json_fields.h"
#include "kube/testing/api_objects.h"
#include "kube/testing/scripted_server.h"

namespace gcushare::kube {
namespace {

using ::gcushare::kube::testing::BookmarkLine;
using ::gcushare::kube::testing::ChunkFeed;
using ::gcushare::kube::testing::FailureStatus;
using ::gcushare::kube::testing::Pod;
using ::gcushare::kube::testing::PodList;
using ::gcushare::kube::testing::ScriptedServer;
using ::gcushare::kube::testing::WatchLine;

class CurlKubeClientTest : public ::testing::Test {
 protected:
  std::unique_ptr<CurlKubeClient> NewClient(ClientConfig config = {}) {
    config.server = server_.url();
    KubeClientOptions options;
    options.clock = &clock_;
    options.retry.backoff.jitter = 0;
    options.reporting_instance = "node-a";
    StatusOr<std::unique_ptr<CurlKubeClient>> client =
        CurlKubeClient::Create(config, options);
    EXPECT_TRUE(client.ok()) << client.status();
    return std::move(client).value();
  }

  // Serves `feed` for watch requests on `path`.
  void ServeWatch(const std::string& path,
                  const std::shared_ptr<ChunkFeed>& feed) {
    server_.Handle(
        "GET", path,
        [this, feed](const httplib::Request&, httplib::Response& res) {
          server_.Stream(res, feed);
        });
  }

  ScriptedServer server_;
  base::FakeClock clock_;
};

// Collects watch events.
struct Events {
  WatchCallback callback() {
    return [this](WatchEvent event) { events.push_back(std::move(event)); };
  }
  std::vector<std::string> Describe() const {
    std::vector<std::string> out;
    for (const WatchEvent& event : events) {
      out.push_back(std::string(WatchEventTypeName(event.type)) + " " +
                    NameOf(event.object) + "@" +
                    ResourceVersionOf(event.object));
    }
    return out;
  }
  std::vector<WatchEvent> events;
};

// The list request's continue token ("" for the first page).
std::string ContinueOf(const httplib::Request& request) {
  return request.has_param("continue") ? request.get_param_value("continue")
                                       : "";
}

TEST_F(CurlKubeClientTest, GetUsesObjectPaths) {
  server_.Handle("GET", "/api/v1/namespaces/ns1/pods/p1",
                 [](const httplib::Request&, httplib::Response& res) {
                   ScriptedServer::Json(res, 200, Pod("ns1", "p1", "7").dump());
                 });
  server_.Handle("GET", "/api/v1/nodes/n1",
                 [](const httplib::Request&, httplib::Response& res) {
                   ScriptedServer::Json(
                       res, 200, R"({"kind":"Node","metadata":{"name":"n1"}})");
                 });
  server_.Start();
  auto client = NewClient();
  StatusOr<nlohmann::json> pod = client->Get(Resource::Pods(), "ns1", "p1");
  ASSERT_TRUE(pod.ok()) << pod.status();
  EXPECT_EQ(ResourceVersionOf(*pod), "7");
  StatusOr<nlohmann::json> node = client->Get(Resource::Nodes(), "", "n1");
  ASSERT_TRUE(node.ok()) << node.status();
  EXPECT_EQ(NameOf(*node), "n1");
}

TEST_F(CurlKubeClientTest, NotFoundCarriesTheServerStatus) {
  server_.Handle(
      "GET", "/api/v1/namespaces/ns1/pods/p1",
      [](const httplib::Request&, httplib::Response& res) {
        ScriptedServer::Json(
            res, 404,
            FailureStatus(404, "NotFound", "pods \"p1\" not found").dump());
      });
  server_.Start();
  auto client = NewClient();
  StatusOr<nlohmann::json> pod = client->Get(Resource::Pods(), "ns1", "p1");
  ASSERT_FALSE(pod.ok());
  EXPECT_EQ(pod.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(pod.status().http_code(), 404);
  EXPECT_EQ(pod.status().message(), "NotFound: pods \"p1\" not found");
  EXPECT_EQ(server_.requests().size(), 1u);  // 404 is not retried.
}

TEST_F(CurlKubeClientTest, NonJsonErrorBodyIsStillClear) {
  server_.Handle("GET", "/api/v1/nodes/n1",
                 [](const httplib::Request&, httplib::Response& res) {
                   res.status = 403;
                   res.set_content("forbidden by proxy\n", "text/plain");
                 });
  server_.Start();
  StatusOr<nlohmann::json> node = NewClient()->Get(Resource::Nodes(), "", "n1");
  ASSERT_FALSE(node.ok());
  EXPECT_EQ(node.status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(node.status().http_code(), 403);
  EXPECT_EQ(node.status().message(), "HTTP 403: forbidden by proxy");
}

TEST_F(CurlKubeClientTest, ListFollowsContinuePages) {
  server_.Handle("GET", "/api/v1/pods",
                 [](const httplib::Request& request, httplib::Response& res) {
                   const std::string token = ContinueOf(request);
                   if (token.empty()) {
                     ScriptedServer::Json(
                         res, 200,
                         PodList({Pod("a", "p1", "1"), Pod("a", "p2", "2")},
                                 "100", "page2"));
                   } else if (token == "page2") {
                     ScriptedServer::Json(
                         res, 200,
                         PodList({Pod("b", "p3", "3"), Pod("b", "p4", "4")},
                                 "100", "page3"));
                   } else {
                     ScriptedServer::Json(
                         res, 200, PodList({Pod("c", "p5", "5")}, "100"));
                   }
                 });
  server_.Start();
  ListOptions options;
  options.label_selector = "app=foo,tier!=fe";
  options.field_selector = "spec.nodeName=n1";
  options.limit = 2;
  options.resource_version = "0";
  StatusOr<ObjectList> list = NewClient()->List(Resource::Pods(), "", options);
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->items.size(), 5u);
  EXPECT_EQ(NameOf(list->items[4]), "p5");
  EXPECT_EQ(list->resource_version, "100");

  auto requests = server_.RequestsTo("GET", "/api/v1/pods");
  ASSERT_EQ(requests.size(), 3u);
  for (const auto& request : requests) {
    EXPECT_EQ(request.Param("labelSelector"), "app=foo,tier!=fe");
    EXPECT_EQ(request.Param("fieldSelector"), "spec.nodeName=n1");
    EXPECT_EQ(request.Param("limit"), "2");
  }
  EXPECT_EQ(requests[0].Param("resourceVersion"), "0");
  EXPECT_FALSE(requests[0].HasParam("continue"));
  EXPECT_EQ(requests[1].Param("continue"), "page2");
  EXPECT_FALSE(requests[1].HasParam("resourceVersion"));
  EXPECT_EQ(requests[2].Param("continue"), "page3");
}

TEST_F(CurlKubeClientTest, ListAsksForTheNextPageBeforeHandingOverItems) {
  // Page 2 is asked for as soon as page 1's continue token is known (its
  // metadata precedes the items), while page 1's items are handed over.
  std::promise<void> page2_asked;
  std::future<void> page2_seen = page2_asked.get_future();
  server_.Handle(
      "GET", "/api/v1/pods",
      [&page2_asked](const httplib::Request& request, httplib::Response& res) {
        if (!request.has_param("continue")) {
          // Metadata first, as the API server writes it (PodList()'s
          // nlohmann dump sorts "items" first).
          ScriptedServer::Json(
              res, 200,
              R"({"metadata":{"resourceVersion":"100","continue":"page2"},)"
              R"("items":[)" +
                  Pod("a", "p1", "1").dump() + "," +
                  Pod("a", "p2", "2").dump() + "]}");
          return;
        }
        page2_asked.set_value();
        ScriptedServer::Json(res, 200, PodList({Pod("b", "p3", "3")}, "100"));
      });
  server_.Start();
  ListOptions options;
  options.limit = 2;
  std::vector<std::string> names;
  bool asked_before_first_item = false;
  StatusOr<std::string> listed = NewClient()->ListEach(
      Resource::Pods(), "", options, [&](const nlohmann::json& item) {
        if (names.empty()) {
          // Bounded, so that a client that does not look ahead fails here
          // instead of hanging.
          asked_before_first_item =
              page2_seen.wait_for(std::chrono::seconds(30)) ==
              std::future_status::ready;
        }
        names.push_back(NameOf(item));
      });
  ASSERT_TRUE(listed.ok()) << listed.status();
  EXPECT_EQ(*listed, "100");
  EXPECT_TRUE(asked_before_first_item);
  EXPECT_EQ(names, (std::vector<std::string>{"p1", "p2", "p3"}));
  EXPECT_EQ(server_.RequestsTo("GET", "/api/v1/pods").size(), 2u);
}

TEST_F(CurlKubeClientTest, ListFollowsThePagesLastContinueToken) {
  // A page naming its metadata twice: the last one counts (as a whole
  // decode reads it), so a page fetched ahead for the first is dropped.
  server_.Handle(
      "GET", "/api/v1/pods",
      [](const httplib::Request& request, httplib::Response& res) {
        const std::string token = ContinueOf(request);
        if (token.empty()) {
          ScriptedServer::Json(
              res, 200,
              R"({"metadata":{"resourceVersion":"7","continue":"A"},)"
              R"("items":[)" +
                  Pod("a", "p1", "1").dump() +
                  R"(],"metadata":{"resourceVersion":"7","continue":"B"}})");
        } else {
          ScriptedServer::Json(res, 200,
                               PodList({Pod("a", "from-" + token, "2")}, "7"));
        }
      });
  server_.Start();
  ListOptions options;
  options.limit = 1;
  StatusOr<ObjectList> list = NewClient()->List(Resource::Pods(), "", options);
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->items.size(), 2u);
  EXPECT_EQ(NameOf(list->items[0]), "p1");
  EXPECT_EQ(NameOf(list->items[1]), "from-B");
}

TEST_F(CurlKubeClientTest, ListPageTooDeepIsDataLossAfterEarlierItems) {
  server_.Handle("GET", "/api/v1/pods",
                 [](const httplib::Request& request, httplib::Response& res) {
                   if (!request.has_param("continue")) {
                     ScriptedServer::Json(
                         res, 200, PodList({Pod("a", "p1", "1")}, "9", "next"));
                     return;
                   }
                   ScriptedServer::Json(res, 200,
                                        R"({"metadata":{},"items":[)" +
                                            std::string(200, '[') +
                                            std::string(200, ']') + "]}");
                 });
  server_.Start();
  ListOptions options;
  options.limit = 1;
  std::vector<std::string> names;
  StatusOr<std::string> listed = NewClient()->ListEach(
      Resource::Pods(), "", options,
      [&](const nlohmann::json& item) { names.push_back(NameOf(item)); });
  ASSERT_FALSE(listed.ok());
  EXPECT_EQ(listed.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(listed.status().message().find("nested deeper than 100 levels"),
            std::string::npos)
      << listed.status();
  EXPECT_EQ(names, (std::vector<std::string>{"p1"}));
}

// Without a limit (a list from the watch cache, whole) the answer is split
// as it streams in: items arrive cut at every byte, pruned to the fields
// asked for, and the list's resourceVersion comes from what is left.
TEST_F(CurlKubeClientTest, UnpagedListIsDecodedAsItStreamsIn) {
  auto feed = std::make_shared<ChunkFeed>();
  nlohmann::json p1 = Pod("a", "p1", "1");
  p1["metadata"]["labels"] = {{"app", "x"}, {"big", std::string(300, 'y')}};
  feed->PushBytewise(PodList({p1, Pod("b", "p2", "2")}, "77"));
  feed->End();
  ServeWatch("/api/v1/pods", feed);  // Streams whatever the request.
  server_.Start();
  json::FieldTree fields;
  fields.Add({"metadata", "name"}).Add({"metadata", "labels", "app"});
  ListOptions options;
  options.resource_version = "0";
  options.fields = &fields;
  std::vector<nlohmann::json> items;
  StatusOr<std::string> listed = NewClient()->ListEach(
      Resource::Pods(), "", options,
      [&](nlohmann::json item) { items.push_back(std::move(item)); });
  ASSERT_TRUE(listed.ok()) << listed.status();
  EXPECT_EQ(*listed, "77");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0],
            (nlohmann::json{
                {"metadata", {{"name", "p1"}, {"labels", {{"app", "x"}}}}}}));
  EXPECT_EQ(items[1], (nlohmann::json{{"metadata", {{"name", "p2"}}}}));
  auto requests = server_.RequestsTo("GET", "/api/v1/pods");
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].Param("resourceVersion"), "0");
  EXPECT_FALSE(requests[0].HasParam("limit"));
}

// Each unpaged item's text is offered as written; one taken is not decoded.
TEST_F(CurlKubeClientTest, UnpagedListOffersEachItemsTextFirst) {
  auto feed = std::make_shared<ChunkFeed>();
  feed->PushBytewise(
      R"({"metadata":{"resourceVersion":"8"},"items":[)"
      R"({"metadata":{"name":"p1"}}, {"metadata":{"name":"p2","x":[1]}}]})");
  feed->End();
  ServeWatch("/api/v1/pods", feed);
  server_.Start();
  ListOptions options;
  options.resource_version = "0";
  std::vector<std::string> texts;
  options.take_item_text = [&](std::string_view text) {
    texts.emplace_back(text);
    return text.find("\"p2\"") != std::string_view::npos;
  };
  std::vector<std::string> names;
  StatusOr<std::string> listed = NewClient()->ListEach(
      Resource::Pods(), "", options,
      [&](const nlohmann::json& item) { names.push_back(NameOf(item)); });
  ASSERT_TRUE(listed.ok()) << listed.status();
  EXPECT_EQ(*listed, "8");
  EXPECT_EQ(texts, (std::vector<std::string>{
                       R"({"metadata":{"name":"p1"}})",
                       R"({"metadata":{"name":"p2","x":[1]}})"}));
  EXPECT_EQ(names, (std::vector<std::string>{"p1"}));
}

TEST_F(CurlKubeClientTest, UnpagedListCutShortOrMalformedIsDataLoss) {
  auto cut = std::make_shared<ChunkFeed>();
  cut->Push(R"({"metadata":{"resourceVersion":"5"},"items":[{"metadata":)"
            R"({"name":"p1"}},{"metadata":)");
  cut->End();
  ServeWatch("/api/v1/namespaces/cut/pods", cut);
  auto bad = std::make_shared<ChunkFeed>();
  bad->Push(
      R"({"metadata":{},"items":[{"metadata":{"name":"p1"}},{"a":tru}]})");
  bad->End();
  ServeWatch("/api/v1/namespaces/bad/pods", bad);
  server_.Start();
  auto client = NewClient();
  for (const char* ns : {"cut", "bad"}) {
    std::vector<std::string> names;
    StatusOr<std::string> listed = client->ListEach(
        Resource::Pods(), ns, ListOptions(),
        [&](const nlohmann::json& item) { names.push_back(NameOf(item)); });
    ASSERT_FALSE(listed.ok()) << ns;
    EXPECT_EQ(listed.status().code(), StatusCode::kDataLoss)
        << ns << ": " << listed.status();
    EXPECT_EQ(names, (std::vector<std::string>{"p1"})) << ns;
  }
}

// Unpaged items skip the parser's depth pre-scan: the splitter's bound
// refuses a deep item, in a dropped field as in a kept one.
TEST_F(CurlKubeClientTest, UnpagedListItemNestedTooDeepIsDataLoss) {
  for (const char* field : {"dropped", "metadata"}) {
    // Root 1, "items" 2, the item 3, its field's 98 arrays: 101 levels.
    std::string answer = R"({"metadata":{"resourceVersion":"5"},"items":[)"
                         R"({"metadata":{"name":"p1"}},{"metadata":{"name":)"
                         R"("p2"},")";
    answer.append(field).append("\":").append(98, '[').append(98, ']');
    auto feed = std::make_shared<ChunkFeed>();
    feed->Push(answer + "}]}");
    feed->End();
    ServeWatch(std::string("/api/v1/namespaces/deep-") + field + "/pods", feed);
  }
  server_.Start();
  auto client = NewClient();
  json::FieldTree fields;
  fields.Add({"metadata", "name"});
  for (const char* field : {"dropped", "metadata"}) {
    SCOPED_TRACE(field);
    ListOptions options;
    options.resource_version = "0";
    options.fields = &fields;
    std::vector<std::string> names;
    StatusOr<std::string> listed = client->ListEach(
        Resource::Pods(), std::string("deep-") + field, options,
        [&](const nlohmann::json& item) { names.push_back(NameOf(item)); });
    ASSERT_FALSE(listed.ok());
    EXPECT_EQ(listed.status().code(), StatusCode::kDataLoss);
    EXPECT_NE(listed.status().message().find("nested too deep"),
              std::string::npos)
        << listed.status();
    EXPECT_EQ(names, (std::vector<std::string>{"p1"}));
  }
}

TEST_F(CurlKubeClientTest, ExpiredContinueTokenIs410) {
  server_.Handle("GET", "/api/v1/namespaces/ns/pods",
                 [](const httplib::Request& request, httplib::Response& res) {
                   if (request.has_param("continue")) {
                     ScriptedServer::Json(
                         res, 410,
                         FailureStatus(410, "Expired",
                                       "The provided continue parameter is "
                                       "too old")
                             .dump());
                   } else {
                     ScriptedServer::Json(
                         res, 200, PodList({Pod("ns", "p1", "1")}, "9", "x"));
                   }
                 });
  server_.Start();
  ListOptions options;
  options.limit = 1;
  StatusOr<ObjectList> list =
      NewClient()->List(Resource::Pods(), "ns", options);
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.status().http_code(), 410);
}

TEST_F(CurlKubeClientTest, CreateConflictIsAlreadyExists) {
  server_.Handle(
      "POST", "/api/v1/namespaces/ns/pods",
      [](const httplib::Request&, httplib::Response& res) {
        ScriptedServer::Json(
            res, 409,
            FailureStatus(409, "AlreadyExists", "pods \"p1\" already exists")
                .dump());
      });
  server_.Start();
  StatusOr<nlohmann::json> created =
      NewClient()->Create(Resource::Pods(), "ns", Pod("ns", "p1", ""));
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(created.status().http_code(), 409);
  EXPECT_EQ(created.status().message(),
            "AlreadyExists: pods \"p1\" already exists");
  auto requests = server_.RequestsTo("POST", "/api/v1/namespaces/ns/pods");
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].Header("Content-Type"), "application/json");
  EXPECT_EQ(NameOf(nlohmann::json::parse(requests[0].body)), "p1");
}

TEST_F(CurlKubeClientTest, BindingSendsABindingAndSurfacesConflicts) {
  std::atomic<int> calls{0};
  server_.Handle(
      "POST", "/api/v1/namespaces/ns/pods/p1/binding",
      [&](const httplib::Request&, httplib::Response& res) {
        if (calls++ == 0) {
          ScriptedServer::Json(
              res, 201,
              R"({"kind":"Status","apiVersion":"v1","status":"Success","code":201})");
        } else {
          ScriptedServer::Json(
              res, 409,
              FailureStatus(409, "Conflict",
                            "pod p1 is already assigned to node \"n1\"")
                  .dump());
        }
      });
  server_.Start();
  auto client = NewClient();
  Status bound = client->CreateBinding("ns", "p1", "uid-1", "n1",
                                       {{"enflame.com/gcu-assigned", "true"}});
  ASSERT_TRUE(bound.ok()) << bound;

  auto requests =
      server_.RequestsTo("POST", "/api/v1/namespaces/ns/pods/p1/binding");
  ASSERT_EQ(requests.size(), 1u);
  const nlohmann::json body = nlohmann::json::parse(requests[0].body);
  EXPECT_EQ(body["apiVersion"], "v1");
  EXPECT_EQ(body["kind"], "Binding");
  EXPECT_EQ(body["metadata"]["name"], "p1");
  EXPECT_EQ(body["metadata"]["namespace"], "ns");
  EXPECT_EQ(body["metadata"]["uid"], "uid-1");
  EXPECT_EQ(body["metadata"]["annotations"]["enflame.com/gcu-assigned"],
            "true");
  EXPECT_EQ(
      body["target"],
      (nlohmann::json{{"apiVersion", "v1"}, {"kind", "Node"}, {"name", "n1"}}));

  Status again = client->CreateBinding("ns", "p1", "", "n2", {});
  EXPECT_EQ(again.code(), StatusCode::kAborted);
  EXPECT_EQ(again.http_code(), 409);
  EXPECT_EQ(again.message(),
            "Conflict: pod p1 is already assigned to node \"n1\"");
  EXPECT_FALSE(
      nlohmann::json::parse(
          server_.RequestsTo("POST", "/api/v1/namespaces/ns/pods/p1/binding")[1]
              .body)["metadata"]
          .contains("uid"));
}

TEST_F(CurlKubeClientTest, PatchUsesTheContentTypeOfItsKind) {
  server_.Handle("PATCH", "/api/v1/.*",
                 [](const httplib::Request&, httplib::Response& res) {
                   ScriptedServer::Json(res, 200, "{\"patched\":true}");
                 });
  server_.Start();
  auto client = NewClient();
  ASSERT_TRUE(client
                  ->Patch(Resource::Pods(), "ns", "p1", PatchType::kMerge,
                          {{"metadata", {{"annotations", {{"k", "v"}}}}}}, "")
                  .ok());
  ASSERT_TRUE(client
                  ->Patch(Resource::Pods(), "ns", "p1",
                          PatchType::kStrategicMerge,
                          {{"metadata", {{"labels", {{"k", nullptr}}}}}}, "")
                  .ok());
  StatusOr<nlohmann::json> patched = client->Patch(
      Resource::Nodes(), "", "n1", PatchType::kJsonPatch,
      nlohmann::json::array({{{"op", "add"},
                              {"path", "/status/capacity/example.com~1gpu"},
                              {"value", "4"}}}),
      "status");
  ASSERT_TRUE(patched.ok()) << patched.status();
  EXPECT_EQ((*patched)["patched"], true);

  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0].path, "/api/v1/namespaces/ns/pods/p1");
  EXPECT_EQ(requests[0].Header("Content-Type"), "application/merge-patch+json");
  EXPECT_EQ(requests[1].Header("Content-Type"),
            "application/strategic-merge-patch+json");
  EXPECT_EQ(nlohmann::json::parse(requests[1].body),
            nlohmann::json::parse(R"({"metadata":{"labels":{"k":null}}})"));
  EXPECT_EQ(requests[2].path, "/api/v1/nodes/n1/status");
  EXPECT_EQ(requests[2].Header("Content-Type"), "application/json-patch+json");
  EXPECT_EQ(
      requests[2].body,
      R"([{"op":"add","path":"/status/capacity/example.com~1gpu","value":"4"}])");
}

TEST_F(CurlKubeClientTest, UpdatePutsAndStaleVersionIsConflict) {
  server_.Handle(
      "PUT", "/api/v1/namespaces/ns/pods/p1",
      [](const httplib::Request& request, httplib::Response& res) {
        const auto body = nlohmann::json::parse(request.body);
        if (ResourceVersionOf(body) == "1") {
          ScriptedServer::Json(
              res, 409,
              FailureStatus(409, "Conflict", "the object has been modified")
                  .dump());
        } else {
          ScriptedServer::Json(res, 200, request.body);
        }
      });
  server_.Start();
  auto client = NewClient();
  StatusOr<nlohmann::json> stale =
      client->Update(Resource::Pods(), "ns", Pod("ns", "p1", "1"));
  EXPECT_EQ(stale.status().code(), StatusCode::kAborted);
  EXPECT_EQ(stale.status().http_code(), 409);
  StatusOr<nlohmann::json> fresh =
      client->Update(Resource::Pods(), "ns", Pod("ns", "p1", "2"));
  ASSERT_TRUE(fresh.ok()) << fresh.status();
  EXPECT_EQ(ResourceVersionOf(*fresh), "2");
  EXPECT_EQ(client->Update(Resource::Pods(), "ns", {{"metadata", {}}})
                .status()
                .code(),
            StatusCode::kInvalidArgument);
}

TEST_F(CurlKubeClientTest, DeleteSendsPreconditions) {
  server_.Handle("DELETE", "/api/v1/namespaces/ns/pods/p1",
                 [](const httplib::Request&, httplib::Response& res) {
                   ScriptedServer::Json(res, 200, Pod("ns", "p1", "5").dump());
                 });
  server_.Start();
  auto client = NewClient();
  DeleteOptions options;
  options.uid_precondition = "uid-p1";
  options.grace_period_seconds = 0;
  ASSERT_TRUE(client->Delete(Resource::Pods(), "ns", "p1", options).ok());
  ASSERT_TRUE(client->Delete(Resource::Pods(), "ns", "p1", {}).ok());
  auto requests = server_.RequestsTo("DELETE", "/api/v1/namespaces/ns/pods/p1");
  ASSERT_EQ(requests.size(), 2u);
  const auto body = nlohmann::json::parse(requests[0].body);
  EXPECT_EQ(body["kind"], "DeleteOptions");
  EXPECT_EQ(body["preconditions"]["uid"], "uid-p1");
  EXPECT_EQ(body["gracePeriodSeconds"], 0);
  EXPECT_EQ(requests[1].body, "");
}

TEST_F(CurlKubeClientTest, EventsAreShapedForKubectlDescribe) {
  server_.Handle("POST", "/api/v1/namespaces/(.*)/events",
                 [](const httplib::Request& request, httplib::Response& res) {
                   ScriptedServer::Json(res, 201, request.body);
                 });
  server_.Start();
  auto client = NewClient();
  ObjectReference node{"Node", "", "n1", "uid-n1", "v1"};
  StatusOr<nlohmann::json> event =
      client->CreateEvent("", node, "Warning", "GcuUnhealthy",
                          "card 3 stopped answering", "gcushare-device-plugin");
  ASSERT_TRUE(event.ok()) << event.status();
  ObjectReference pod{"Pod", "team", "p1", "uid-p1", "v1"};
  ASSERT_TRUE(client
                  ->CreateEvent("", pod, "Normal", "GcuAllocated", "card 0",
                                "gcushare-scheduler-extender")
                  .ok());

  auto node_events =
      server_.RequestsTo("POST", "/api/v1/namespaces/default/events");
  ASSERT_EQ(node_events.size(), 1u);
  const auto body = nlohmann::json::parse(node_events[0].body);
  EXPECT_EQ(body["apiVersion"], "v1");
  EXPECT_EQ(body["kind"], "Event");
  EXPECT_EQ(body["metadata"]["namespace"], "default");
  EXPECT_EQ(NameOf(body).rfind("n1.", 0), 0u) << body.dump();
  EXPECT_EQ(NameOf(body).size(), 3u + 16u);
  EXPECT_EQ(body["involvedObject"], (nlohmann::json{{"kind", "Node"},
                                                    {"name", "n1"},
                                                    {"uid", "uid-n1"},
                                                    {"apiVersion", "v1"}}));
  EXPECT_EQ(body["type"], "Warning");
  EXPECT_EQ(body["reason"], "GcuUnhealthy");
  EXPECT_EQ(body["message"], "card 3 stopped answering");
  EXPECT_EQ(body["count"], 1);
  EXPECT_EQ(body["firstTimestamp"], "2024-05-01T12:00:00Z");
  EXPECT_EQ(body["lastTimestamp"], "2024-05-01T12:00:00Z");
  EXPECT_EQ(body["source"]["component"], "gcushare-device-plugin");
  EXPECT_EQ(body["source"]["host"], "n1");
  EXPECT_EQ(body["reportingComponent"], "gcushare-device-plugin");
  EXPECT_EQ(body["reportingInstance"], "node-a");

  auto pod_events =
      server_.RequestsTo("POST", "/api/v1/namespaces/team/events");
  ASSERT_EQ(pod_events.size(), 1u);
  const auto pod_body = nlohmann::json::parse(pod_events[0].body);
  EXPECT_EQ(pod_body["involvedObject"]["namespace"], "team");
  EXPECT_NE(NameOf(pod_body), NameOf(body));
}

TEST_F(CurlKubeClientTest, WatchSendsItsQueryAndSplitsOneByteChunks) {
  auto feed = std::make_shared<ChunkFeed>();
  ServeWatch("/api/v1/namespaces/ns/pods", feed);
  server_.Start();
  feed->PushBytewise(WatchLine("ADDED", Pod("ns", "a", "11")) +
                     WatchLine("MODIFIED", Pod("ns", "a", "12")) +
                     BookmarkLine("13") +
                     WatchLine("DELETED", Pod("ns", "a", "14")));
  feed->End();
  WatchOptions options;
  options.resource_version = "10";
  options.label_selector = "app=x";
  options.timeout_seconds = 30;
  Events events;
  Status status =
      NewClient()->Watch(Resource::Pods(), "ns", options, events.callback());
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(events.Describe(),
            (std::vector<std::string>{"ADDED a@11", "MODIFIED a@12",
                                      "BOOKMARK @13", "DELETED a@14"}));
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].Param("watch"), "true");
  EXPECT_EQ(requests[0].Param("resourceVersion"), "10");
  EXPECT_EQ(requests[0].Param("allowWatchBookmarks"), "true");
  EXPECT_EQ(requests[0].Param("timeoutSeconds"), "30");
  EXPECT_EQ(requests[0].Param("labelSelector"), "app=x");
}

TEST_F(CurlKubeClientTest, WatchSplitsObjectsAcrossChunkBoundaries) {
  auto feed = std::make_shared<ChunkFeed>();
  ServeWatch("/api/v1/pods", feed);
  server_.Start();
  const std::string stream = WatchLine("ADDED", Pod("a", "p1", "1")) +
                             WatchLine("ADDED", Pod("b", "p2", "2")) +
                             WatchLine("MODIFIED", Pod("a", "p1", "3"));
  // Cut in the middle of objects, of keys and of the newline pairs.
  size_t offset = 0;
  for (size_t cut : {17u, 90u, 3u, 150u, 1u, 60u}) {
    feed->Push(stream.substr(offset, cut));
    offset += cut;
  }
  feed->Push(stream.substr(offset));
  feed->End();
  Events events;
  Status status =
      NewClient()->Watch(Resource::Pods(), "", {}, events.callback());
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(
      events.Describe(),
      (std::vector<std::string>{"ADDED p1@1", "ADDED p2@2", "MODIFIED p1@3"}));
}

TEST_F(CurlKubeClientTest, WatchErrorEventReturnsIts410) {
  auto feed = std::make_shared<ChunkFeed>();
  ServeWatch("/api/v1/pods", feed);
  server_.Start();
  feed->Push(WatchLine("ADDED", Pod("a", "p1", "1")));
  feed->Push(WatchLine(
      "ERROR", FailureStatus(410, "Expired", "too old resource version")));
  feed->End();
  Events events;
  Status status =
      NewClient()->Watch(Resource::Pods(), "", {}, events.callback());
  EXPECT_EQ(status.http_code(), 410);
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(status.message(), "Expired: too old resource version");
  EXPECT_EQ(events.events.size(), 1u);
}

TEST_F(CurlKubeClientTest, WatchHttp410) {
  server_.Handle("GET", "/api/v1/pods",
                 [](const httplib::Request&, httplib::Response& res) {
                   ScriptedServer::Json(
                       res, 410,
                       FailureStatus(410, "Gone", "rv 3 gone").dump());
                 });
  server_.Start();
  Events events;
  WatchOptions options;
  options.resource_version = "3";
  Status status =
      NewClient()->Watch(Resource::Pods(), "", options, events.callback());
  EXPECT_EQ(status.http_code(), 410);
  EXPECT_EQ(status.message(), "Gone: rv 3 gone");
  EXPECT_TRUE(events.events.empty());
}

TEST_F(CurlKubeClientTest, WatchMalformedLineIsDataLoss) {
  auto feed = std::make_shared<ChunkFeed>();
  ServeWatch("/api/v1/pods", feed);
  server_.Start();
  feed->Push(WatchLine("ADDED", Pod("a", "p1", "1")));
  feed->Push("{\"type\":\"ADDED\",\"object\":{\"metadata\":{]}}\n");
  feed->Push(WatchLine("ADDED", Pod("a", "p2", "2")));
  feed->End();
  Events events;
  Status status =
      NewClient()->Watch(Resource::Pods(), "", {}, events.callback());
  EXPECT_EQ(status.code(), StatusCode::kDataLoss);
  EXPECT_NE(status.message().find("not valid JSON"), std::string::npos);
  EXPECT_NE(status.message().find("{\"type\":\"ADDED\",\"object\":{\"meta"),
            std::string::npos)
      << status.message();
  EXPECT_EQ(events.Describe(), std::vector<std::string>{"ADDED p1@1"});
}

TEST_F(CurlKubeClientTest, WatchDroppedMidStreamIsUnavailable) {
  auto feed = std::make_shared<ChunkFeed>();
  ServeWatch("/api/v1/pods", feed);
  server_.Start();
  const std::string line = WatchLine("ADDED", Pod("a", "p2", "2"));
  feed->Push(WatchLine("ADDED", Pod("a", "p1", "1")) + line.substr(0, 30));
  feed->Drop();
  Events events;
  Status status =
      NewClient()->Watch(Resource::Pods(), "", {}, events.callback());
  EXPECT_EQ(status.code(), StatusCode::kUnavailable) << status;
  EXPECT_EQ(status.http_code(), 0);
  EXPECT_EQ(events.events.size(), 1u);
}

TEST_F(CurlKubeClientTest, WatchCleanEndInsideAnEventIsUnavailable) {
  auto feed = std::make_shared<ChunkFeed>();
  ServeWatch("/api/v1/pods", feed);
  server_.Start();
  feed->Push(WatchLine("ADDED", Pod("a", "p1", "1")).substr(0, 40));
  feed->End();
  Events events;
  Status status =
      NewClient()->Watch(Resource::Pods(), "", {}, events.callback());
  EXPECT_EQ(status.code(), StatusCode::kUnavailable) << status;
}

TEST_F(CurlKubeClientTest, WatchIsCancellableFromAnotherThread) {
  auto feed = std::make_shared<ChunkFeed>();
  ServeWatch("/api/v1/pods", feed);
  server_.Start();
  auto client = NewClient();
  base::Cancellation cancel;
  std::promise<void> first_event;
  std::atomic<int> count{0};
  WatchOptions options;
  options.cancel = &cancel;
  std::future<Status> watch = std::async(std::launch::async, [&] {
    return client->Watch(Resource::Pods(), "", options, [&](const WatchEvent&) {
      if (count++ == 0) first_event.set_value();
    });
  });
  feed->Push(WatchLine("ADDED", Pod("a", "p1", "1")));
  first_event.get_future().wait();
  cancel.Cancel();
  EXPECT_EQ(watch.get().code(), StatusCode::kCancelled);
  feed->Drop();
}

}  // namespace
}  // namespace gcushare::kube
