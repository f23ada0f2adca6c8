// CurlKubeClient against the stand-in kube-apiserver binary over real HTTP:
// Binding conflicts, and bearer tokens from a kubeconfig tokenFile that the
// server rotates.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "kube/config.h"
#include "kube/curl_kube_client.h"
#include "kube/informer.h"
#include "kube/json_fields.h"
#include "kube/testing/recording_handler.h"
#include "testing/files.h"
#include "tests/kube_client/stand_in_writer.h"
#include "tests/kube_client/test_clients.h"
#include "tests/peers/apiserver/testing/apiserver_process.h"

namespace gcushare::kube_client_test {
namespace {

using ::gcushare::apiserver::testing::ApiserverProcess;
using ::gcushare::kube::Informer;
using ::gcushare::kube::Resource;
using ::gcushare::kube::StringAt;
using ::gcushare::kube::testing::RecordingHandler;
using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::WriteFileOrDie;

// --- 4. A second Binding of the same pod is a 409. --------------------------

class BindingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(apiserver_.Start().ok()) << apiserver_.output();
    writer_ = std::make_unique<StandInWriter>(apiserver_.port());
    auto client = NewClient(apiserver_.url());
    ASSERT_TRUE(client.ok()) << client.status();
    client_ = std::move(*client);
  }
  void TearDown() override {
    client_.reset();  // Closes its kept-alive connections.
    EXPECT_TRUE(apiserver_.Stop().ok()) << apiserver_.output();
  }

  ApiserverProcess apiserver_;
  std::unique_ptr<StandInWriter> writer_;
  std::unique_ptr<kube::CurlKubeClient> client_;
};

TEST_F(BindingTest, SecondBindingIsAConflictAndThePodKeepsTheFirstNode) {
  auto pod = writer_->CreatePod("bind", "p1");
  ASSERT_TRUE(pod.ok()) << pod.status();
  const std::string uid = StringAt(*pod, {"metadata", "uid"});
  ASSERT_FALSE(uid.empty());

  Status first = client_->CreateBinding("bind", "p1", uid, "n1",
                                        {{"enflame.com/gcu-device-id", "0"}});
  ASSERT_TRUE(first.ok()) << first;
  Status second = client_->CreateBinding("bind", "p1", uid, "n2",
                                         {{"enflame.com/gcu-device-id", "1"}});
  EXPECT_EQ(second.http_code(), 409);
  EXPECT_EQ(second.code(), StatusCode::kAborted);
  // The real server's words: a Conflict on pods/binding.
  EXPECT_EQ(second.message(),
            "Conflict: Operation cannot be fulfilled on pods/binding \"p1\": "
            "pod p1 is already assigned to node \"n1\"");

  auto bound = client_->Get(Resource::Pods(), "bind", "p1");
  ASSERT_TRUE(bound.ok()) << bound.status();
  EXPECT_EQ(StringAt(*bound, {"spec", "nodeName"}), "n1");
  EXPECT_EQ(StringAt(*bound,
                     {"metadata", "annotations", "enflame.com/gcu-device-id"}),
            "0");
}

TEST_F(BindingTest, StaleUidIsAConflictAndLeavesThePodUnbound) {
  auto pod = writer_->CreatePod("bind", "p2");
  ASSERT_TRUE(pod.ok()) << pod.status();
  Status stale = client_->CreateBinding("bind", "p2", "not-the-uid", "n1", {});
  EXPECT_EQ(stale.http_code(), 409);
  EXPECT_EQ(stale.message().rfind(
                "Conflict: Operation cannot be fulfilled on pods \"p2\": ", 0),
            0u)
      << stale.message();
  EXPECT_NE(stale.message().find("Precondition failed: UID in precondition: "
                                 "not-the-uid"),
            std::string::npos)
      << stale.message();
  auto unbound = writer_->GetPod("bind", "p2");
  ASSERT_TRUE(unbound.ok());
  EXPECT_EQ(StringAt(*unbound, {"spec", "nodeName"}), "");
}

TEST_F(BindingTest, ConcurrentBindingsHaveExactlyOneWinner) {
  auto pod = writer_->CreatePod("bind", "p3");
  ASSERT_TRUE(pod.ok()) << pod.status();
  const std::string uid = StringAt(*pod, {"metadata", "uid"});
  constexpr int kBinders = 8;
  std::vector<Status> results(kBinders);
  std::vector<std::thread> binders;
  binders.reserve(kBinders);
  std::atomic<bool> go{false};
  for (int i = 0; i < kBinders; ++i) {
    binders.emplace_back([&, i] {
      while (!go.load()) std::this_thread::yield();
      results[i] = client_->CreateBinding("bind", "p3", uid,
                                          "n" + std::to_string(i), {});
    });
  }
  go = true;
  for (std::thread& t : binders) t.join();
  std::vector<int> winners;
  for (int i = 0; i < kBinders; ++i) {
    if (results[i].ok()) {
      winners.push_back(i);
    } else {
      EXPECT_EQ(results[i].http_code(), 409) << results[i];
    }
  }
  ASSERT_EQ(winners.size(), 1u);
  auto bound = writer_->GetPod("bind", "p3");
  ASSERT_TRUE(bound.ok());
  EXPECT_EQ(StringAt(*bound, {"spec", "nodeName"}),
            "n" + std::to_string(winners[0]));
}

// --- 5. Token rotation through a kubeconfig tokenFile. ----------------------

class TokenRotationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFileOrDie(server_token_, "token-one\n");
    WriteFileOrDie(client_token_, "token-one\n");
    ASSERT_TRUE(apiserver_.Start().ok()) << apiserver_.output();
    // A relative tokenFile resolves against the kubeconfig's directory.
    WriteFileOrDie(kubeconfig_,
                   "apiVersion: v1\n"
                   "kind: Config\n"
                   "clusters:\n"
                   "- name: stand-in\n"
                   "  cluster:\n"
                   "    server: " +
                       apiserver_.url() +
                       "\n"
                       "users:\n"
                       "- name: extender\n"
                       "  user:\n"
                       "    tokenFile: client-token\n"
                       "contexts:\n"
                       "- name: test\n"
                       "  context:\n"
                       "    cluster: stand-in\n"
                       "    user: extender\n"
                       "    namespace: tok\n"
                       "current-context: test\n");
  }
  void TearDown() override {
    EXPECT_TRUE(apiserver_.Stop().ok()) << apiserver_.output();
  }

  const std::string dir_ = MakeTempDir();
  const std::string server_token_ = dir_ + "/server-token";
  const std::string client_token_ = dir_ + "/client-token";
  const std::string kubeconfig_ = dir_ + "/kubeconfig";
  ApiserverProcess apiserver_{{"--token-file=" + server_token_}};
};

TEST_F(TokenRotationTest, ClientRereadsItsTokenFileWhenTheServerRotates) {
  auto config = kube::LoadKubeconfig(kubeconfig_);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->token_file, client_token_);
  EXPECT_EQ(config->namespace_name, "tok");
  // The token source re-reads the file on its hourly schedule only, so
  // below only a 401 makes it look again.
  kube::KubeClientOptions options;
  options.token_refresh_interval = std::chrono::seconds(3600);
  auto created = kube::CurlKubeClient::Create(*config, options);
  ASSERT_TRUE(created.ok()) << created.status();
  std::unique_ptr<kube::CurlKubeClient> client = std::move(*created);
  StandInWriter writer(apiserver_.port(), "token-one");
  ASSERT_TRUE(writer.CreatePod("tok", "p1").ok());

  auto before = client->Get(Resource::Pods(), "tok", "p1");
  ASSERT_TRUE(before.ok()) << before.status();
  RecordingHandler handler;
  kube::InformerOptions informer_options = FastInformerOptions();
  informer_options.watch_timeout_seconds = 1;  // Re-watches often.
  Informer informer(client.get(), Resource::Pods(), "tok", &handler,
                    informer_options);
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(std::chrono::seconds(30)));

  // The server now accepts only token-two; the old one is refused...
  WriteFileOrDie(server_token_, "token-two\n");
  EXPECT_FALSE(writer.GetPod("tok", "p1").ok());
  // ...and the client's file is rewritten (as kubelet rotates a projected
  // service account token).
  WriteFileOrDie(client_token_, "token-two\n");
  auto after = client->Get(Resource::Pods(), "tok", "p1");
  EXPECT_TRUE(after.ok()) << after.status();
  auto list = client->List(Resource::Pods(), "tok", {});
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(list->items.size(), 1u);
  // The informer's next watches authenticate with the new token too.
  writer.set_token("token-two");
  ASSERT_TRUE(writer.CreatePod("tok", "p2").ok());
  EXPECT_TRUE(
      handler.WaitUntil([](const std::vector<std::string>&,
                           const std::map<std::string, std::string>& cache) {
        return cache.count("p2") == 1;
      }))
      << ::testing::PrintToString(handler.log());
  informer.Stop();

  // The server moves on but the file keeps the old token: a clear 401
  // error value, for plain requests and for watches.
  WriteFileOrDie(server_token_, "token-three\n");
  auto denied = client->Get(Resource::Pods(), "tok", "p1");
  ASSERT_FALSE(denied.ok());
  EXPECT_EQ(denied.status().http_code(), 401);
  EXPECT_EQ(denied.status().code(), StatusCode::kUnauthenticated);
  EXPECT_EQ(denied.status().message(), "Unauthorized: Unauthorized");
  kube::WatchOptions watch_options;
  int events = 0;
  Status watch = client->Watch(Resource::Pods(), "tok", watch_options,
                               [&](const kube::WatchEvent&) { ++events; });
  EXPECT_EQ(watch.http_code(), 401) << watch;
  EXPECT_EQ(events, 0);

  // Once the file catches up, requests work again.
  WriteFileOrDie(client_token_, "token-three");
  auto recovered = client->Get(Resource::Pods(), "tok", "p2");
  EXPECT_TRUE(recovered.ok()) << recovered.status();
}

}  // namespace
}  // namespace gcushare::kube_client_test
