// The //tests/peers:apiserver binary as scripts use it: flags, the listening
// line, SIGTERM, and --state-file across a SIGKILL.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <string>

#include "daemon/version.h"
#include "testing/files.h"
#include "testing/subprocess.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::apiserver {
namespace {

using ::gcushare::testing::ChildProcess;
using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::RunfilePath;
using ::gcushare::testing::RunProcess;
using ::gcushare::testing::WriteFileOrDie;
using testing::HttpResult;
using testing::Request;

std::string Binary() { return RunfilePath("tests/peers/apiserver"); }

// Starts the binary and returns its port, read from the listening line.
int StartAndGetPort(ChildProcess& child,
                    const std::vector<std::string>& extra) {
  std::vector<std::string> argv = {Binary(), "--port=0",
                                   "--log-dir=" + MakeTempDir()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  EXPECT_TRUE(child.Start(argv).ok());
  Status s = child.WaitForOutput("listening on http://127.0.0.1:",
                                 std::chrono::seconds(30));
  EXPECT_TRUE(s.ok()) << child.output();
  // The line is one flushed write to a pipe, so it arrives whole.
  const std::string prefix = "listening on http://127.0.0.1:";
  size_t at = child.output().find(prefix);
  if (at == std::string::npos) return -1;
  return std::atoi(child.output().c_str() + at + prefix.size());
}

TEST(ApiserverBinaryTest, HelpAndVersion) {
  auto help = RunProcess({Binary(), "--help"});
  ASSERT_TRUE(help.ok());
  EXPECT_EQ(help->exit_code, 0);
  for (const char* flag :
       {"--port", "--bind-address", "--token", "--token-file", "--history",
        "--bookmark-interval", "--state-file", "--threads",
        "--watch-chunk-bytes", "--crash-on-binding", "--crash-phase",
        "--feature-gates", "--kube-version", "--log-dir"}) {
    EXPECT_NE(help->out.find(flag), std::string::npos) << flag;
  }
  auto version = RunProcess({Binary(), "--version"});
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(version->exit_code, 0);
  EXPECT_EQ(version->out,
            "gcushare-test-apiserver " + std::string(Version()) + "\n");
}

TEST(ApiserverBinaryTest, KubeVersionAndFeatureGateFlags) {
  ChildProcess child;
  int port =
      StartAndGetPort(child, {"--kube-version=v1.36.3",
                              "--feature-gates=DRAConsumableCapacity=false,"
                              "DRAExtendedResource=true"});
  ASSERT_GT(port, 0) << child.output();
  HttpResult version = Request(port, "GET", "/version");
  EXPECT_EQ(version.json["gitVersion"], "v1.36.3");
  EXPECT_EQ(version.json["minor"], "36");
  HttpResult slice = Request(
      port, "POST", "/apis/resource.k8s.io/v1/resourceslices",
      R"({"metadata":{"name":"s"},"spec":{"driver":"gcu.enflame.com",)"
      R"("nodeName":"n1","pool":{"name":"n1","resourceSliceCount":1},)"
      R"("devices":[{"name":"gcu-0","allowMultipleAllocations":true}]}})");
  ASSERT_EQ(slice.status, 201) << slice.body;
  EXPECT_FALSE(
      slice.json["spec"]["devices"][0].contains("allowMultipleAllocations"));

  auto bad = RunProcess({Binary(), "--port=0", "--log-dir=" + MakeTempDir(),
                         "--feature-gates=DRAConsumableCapacity=false,Nope=1"});
  ASSERT_TRUE(bad.ok());
  EXPECT_NE(bad->exit_code, 0);
  EXPECT_NE(bad->err.find("unrecognized feature gate: Nope"), std::string::npos)
      << bad->err;
  auto bad_version = RunProcess(
      {Binary(), "--port=0", "--log-dir=" + MakeTempDir(), "--kube-version=x"});
  ASSERT_TRUE(bad_version.ok());
  EXPECT_NE(bad_version->exit_code, 0);
}

TEST(ApiserverBinaryTest, ServesAndStopsOnSigterm) {
  ChildProcess child;
  int port = StartAndGetPort(child, {"--token=t0k"});
  ASSERT_GT(port, 0) << child.output();
  EXPECT_EQ(Request(port, "GET", "/healthz").status, 401);
  HttpResult ok = Request(port, "GET", "/healthz", "", "", "t0k");
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(ok.body, "ok");
  HttpResult created =
      Request(port, "POST", "/api/v1/nodes", R"({"metadata":{"name":"n1"}})",
              "application/json", "t0k");
  EXPECT_EQ(created.status, 201) << created.body;
  ASSERT_TRUE(child.Signal(SIGTERM).ok());
  auto r = child.Wait();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0) << r->out;
  EXPECT_NE(r->out.find("stopped cleanly after signal 15"), std::string::npos)
      << r->out;
}

TEST(ApiserverBinaryTest, TokenFileIsRereadOnEveryRequest) {
  const std::string token_file = MakeTempDir() + "/token";
  WriteFileOrDie(token_file, "first\n");
  ChildProcess child;
  int port = StartAndGetPort(child, {"--token-file=" + token_file});
  ASSERT_GT(port, 0) << child.output();
  EXPECT_EQ(Request(port, "GET", "/healthz", "", "", "first").status, 200);
  HttpResult wrong = Request(port, "GET", "/healthz", "", "", "second");
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(wrong.json["reason"], "Unauthorized");

  WriteFileOrDie(token_file, "second");
  EXPECT_EQ(Request(port, "GET", "/healthz", "", "", "second").status, 200);
  EXPECT_EQ(Request(port, "GET", "/healthz", "", "", "first").status, 401);

  WriteFileOrDie(token_file, " \n");  // Empty: nobody gets in.
  EXPECT_EQ(Request(port, "GET", "/healthz").status, 401);
  EXPECT_EQ(Request(port, "GET", "/healthz", "", "", "second").status, 401);
  ASSERT_TRUE(child.Signal(SIGTERM).ok());
  EXPECT_TRUE(child.Wait().ok());
}

TEST(ApiserverBinaryTest, TokenAndTokenFileAreExclusive) {
  auto r = RunProcess({Binary(), "--port=0", "--log-dir=" + MakeTempDir(),
                       "--token=a", "--token-file=/tmp/none"});
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r->exit_code, 0);
  EXPECT_NE(r->err.find("not both"), std::string::npos) << r->err;
}

TEST(ApiserverBinaryTest, StateFileSurvivesSigkill) {
  std::string state = MakeTempDir() + "/state.jsonl";
  int64_t last_rv = 0;
  std::string uid;
  {
    ChildProcess child;
    int port = StartAndGetPort(child, {"--state-file=" + state});
    ASSERT_GT(port, 0);
    HttpResult pod = Request(port, "POST", "/api/v1/namespaces/ns/pods",
                             R"({"metadata":{"name":"p1"}})");
    ASSERT_EQ(pod.status, 201) << pod.body;
    uid = pod.json["metadata"]["uid"];
    ASSERT_EQ(Request(port, "POST", "/api/v1/namespaces/ns/pods",
                      R"({"metadata":{"name":"p2"}})")
                  .status,
              201);
    HttpResult gone = Request(port, "DELETE", "/api/v1/namespaces/ns/pods/p2");
    ASSERT_EQ(gone.status, 200);
    last_rv = std::atoll(
        gone.json["metadata"]["resourceVersion"].get<std::string>().c_str());
    ASSERT_TRUE(child.Signal(SIGKILL).ok());
    auto r = child.Wait();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->term_signal, SIGKILL);
  }
  ChildProcess child;
  int port = StartAndGetPort(child, {"--state-file=" + state});
  ASSERT_GT(port, 0);
  HttpResult p1 = Request(port, "GET", "/api/v1/namespaces/ns/pods/p1");
  ASSERT_EQ(p1.status, 200) << p1.body;
  EXPECT_EQ(p1.json["metadata"]["uid"], uid);
  EXPECT_EQ(Request(port, "GET", "/api/v1/namespaces/ns/pods/p2").status, 404);
  HttpResult list = Request(port, "GET", "/api/v1/pods");
  EXPECT_EQ(list.json["metadata"]["resourceVersion"], std::to_string(last_rv));
  HttpResult p3 = Request(port, "POST", "/api/v1/namespaces/ns/pods",
                          R"({"metadata":{"name":"p3"}})");
  ASSERT_EQ(p3.status, 201);
  EXPECT_EQ(p3.json["metadata"]["resourceVersion"],
            std::to_string(last_rv + 1));
  ASSERT_TRUE(child.Signal(SIGTERM).ok());
  EXPECT_TRUE(child.Wait().ok());
}

// --crash-on-binding: the Nth Binding POST kills the server, after its
// commit was journaled or before anything was written; the restarted server
// (same state file) shows which.
struct CrashRun {
  HttpResult first;   // Binding #1.
  HttpResult second;  // Binding #2: the one that kills.
  ::gcushare::testing::ProcessResult ended;
};

CrashRun BindTwiceWithCrash(const std::string& state,
                            const std::string& phase) {
  CrashRun run;
  ChildProcess child;
  int port =
      StartAndGetPort(child, {"--state-file=" + state, "--crash-on-binding=2",
                              "--crash-phase=" + phase});
  EXPECT_GT(port, 0);
  for (const char* name : {"p1", "p2"}) {
    EXPECT_EQ(Request(port, "POST", "/api/v1/namespaces/ns/pods",
                      std::string(R"({"metadata":{"name":")") + name +
                          R"("},"spec":{"containers":[{"name":"c"}]}})")
                  .status,
              201);
  }
  auto bind = [port](const std::string& pod) {
    return Request(
        port, "POST", "/api/v1/namespaces/ns/pods/" + pod + "/binding",
        R"({"metadata":{"name":")" + pod + R"("},"target":{"name":"n1"}})");
  };
  run.first = bind("p1");
  run.second = bind("p2");
  auto r = child.Wait();
  EXPECT_TRUE(r.ok());
  if (r.ok()) run.ended = *r;
  return run;
}

std::string NodeNameAfterRestart(const std::string& state,
                                 const std::string& pod, int* rebind_status) {
  ChildProcess child;
  int port = StartAndGetPort(child, {"--state-file=" + state});
  EXPECT_GT(port, 0);
  HttpResult got = Request(port, "GET", "/api/v1/namespaces/ns/pods/" + pod);
  std::string node = got.json["spec"].value("nodeName", "");
  *rebind_status =
      Request(
          port, "POST", "/api/v1/namespaces/ns/pods/" + pod + "/binding",
          R"({"metadata":{"name":")" + pod + R"("},"target":{"name":"n1"}})")
          .status;
  EXPECT_TRUE(child.Signal(SIGTERM).ok());
  EXPECT_TRUE(child.Wait().ok());
  return node;
}

TEST(ApiserverBinaryTest, CrashOnBindingAfterCommit) {
  const std::string state = MakeTempDir() + "/state.jsonl";
  CrashRun run = BindTwiceWithCrash(state, "after-commit");
  EXPECT_EQ(run.first.status, 201) << run.first.body;
  EXPECT_EQ(run.second.status, 0) << "answered: " << run.second.body;
  EXPECT_EQ(run.ended.term_signal, SIGKILL);
  EXPECT_NE(run.ended.out.find("crash-on-binding: SIGKILL after-commit of "
                               "Binding #2 POST "
                               "/api/v1/namespaces/ns/pods/p2/binding"),
            std::string::npos)
      << run.ended.out;
  int rebind = 0;
  EXPECT_EQ(NodeNameAfterRestart(state, "p2", &rebind), "n1");
  EXPECT_EQ(rebind, 409);  // Bound once: a second Binding conflicts.
}

TEST(ApiserverBinaryTest, CrashOnBindingBeforeCommit) {
  const std::string state = MakeTempDir() + "/state.jsonl";
  CrashRun run = BindTwiceWithCrash(state, "before-commit");
  EXPECT_EQ(run.first.status, 201) << run.first.body;
  EXPECT_EQ(run.second.status, 0) << "answered: " << run.second.body;
  EXPECT_EQ(run.ended.term_signal, SIGKILL);
  EXPECT_NE(run.ended.out.find("crash-on-binding: SIGKILL before-commit"),
            std::string::npos)
      << run.ended.out;
  int rebind = 0;
  EXPECT_EQ(NodeNameAfterRestart(state, "p2", &rebind), "");
  EXPECT_EQ(rebind, 201);  // Nothing was written: the pod binds now.
}

TEST(ApiserverBinaryTest, CrashOnBindingRejectsBadFlags) {
  auto phase = RunProcess({Binary(), "--port=0", "--log-dir=" + MakeTempDir(),
                           "--crash-on-binding=1", "--crash-phase=during"});
  ASSERT_TRUE(phase.ok());
  EXPECT_NE(phase->exit_code, 0);
  EXPECT_NE(phase->err.find("before-commit or after-commit"), std::string::npos)
      << phase->err;
  auto count = RunProcess({Binary(), "--port=0", "--log-dir=" + MakeTempDir(),
                           "--crash-on-binding=-1"});
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(count->exit_code, 2) << count->err;
}

}  // namespace
}  // namespace gcushare::apiserver
