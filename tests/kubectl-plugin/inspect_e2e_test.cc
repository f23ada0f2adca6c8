// kubectl-inspect-gcushare as a process, reading the real extender's
// /inspect (the extender's cache fed by the stand-in API server).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "extender/testing/objects.h"
#include "testing/files.h"
#include "testing/subprocess.h"
#include "tests/extender/harness.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare {
namespace {

using extender::testing::Assigned;
using extender::testing::MemoryPod;
using extender::testing::SharingNode;

TEST(InspectE2eTest, TableShowsTheExtendersCache) {
  apiserver::testing::TestServer api;
  const std::string dir = testing::MakeTempDir();
  const std::string kubeconfig = testing::WriteKubeconfig(dir, api.port());
  // Two cards of 16 GiB at unit 0.1; two pods on card 0 and one on card 1.
  ASSERT_EQ(
      api.Post("/api/v1/nodes", SharingNode("n1", 2, 160, "0.1").dump()).status,
      201);
  for (const auto& [name, units, card] : {std::tuple{"infer-1", 40, 0u},
                                          {"infer-2", 5, 0u},
                                          {"train", 160, 1u}}) {
    auto pod = Assigned(MemoryPod(name, units), "n1", {card}, 160);
    auto r = api.Post("/api/v1/namespaces/default/pods", pod.dump());
    ASSERT_EQ(r.status, 201) << r.body;
  }
  testing::ExtenderProcess extender;
  Status started = extender.Start(kubeconfig, dir + "/logs");
  ASSERT_TRUE(started.ok()) << started.message();

  const std::string want =
      "NODE  CARD  HEALTH  USED/TOTAL   FREE      PODS\n"
      "n1    0     ok      4.5/16 GiB   11.5 GiB  default/infer-1: 4 GiB\n"
      "                                           default/infer-2: 0.5 GiB\n"
      "      1     ok      16/16 GiB    0 GiB     default/train: 16 GiB\n"
      "      all           20.5/32 GiB  11.5 GiB\n";
  const std::string url =
      "--extender-url=http://127.0.0.1:" + std::to_string(extender.port());
  std::string last;
  // The cache fills from the watch: wait for the last pod to show.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    auto r = testing::RunProcess(
        {testing::RunfilePath("kubectl-plugin/kubectl-inspect-gcushare"), url});
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(r->exit_code, 0) << r->err;
    last = r->out;
    if (last == want) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(last, want);

  auto one = testing::RunProcess(
      {testing::RunfilePath("kubectl-plugin/kubectl-inspect-gcushare"), "n1",
       "--no-pods", url});
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->out,
            "NODE  CARD  HEALTH  USED/TOTAL   FREE      PODS\n"
            "n1    0     ok      4.5/16 GiB   11.5 GiB  2 pods\n"
            "      1     ok      16/16 GiB    0 GiB     1 pod\n"
            "      all           20.5/32 GiB  11.5 GiB\n");
  auto missing = testing::RunProcess(
      {testing::RunfilePath("kubectl-plugin/kubectl-inspect-gcushare"), "n2",
       url});
  ASSERT_TRUE(missing.ok());
  EXPECT_EQ(missing->exit_code, 1);
  EXPECT_NE(missing->err.find("knows no GCUShare node \"n2\""),
            std::string::npos)
      << missing->err;
  auto stopped = extender.Stop();
  ASSERT_TRUE(stopped.ok());
  EXPECT_EQ(*stopped, 0);
}

}  // namespace
}  // namespace gcushare
