#include "tests/peers/apiserver/field_selector.h"

#include <gtest/gtest.h>

#include "tests/peers/apiserver/resource_kind.h"

namespace gcushare::apiserver {
namespace {

struct MatchCase {
  const char* selector;
  const char* object;  // A pod.
  bool matches;
};

class FieldSelectorPodTest : public ::testing::TestWithParam<MatchCase> {};

TEST_P(FieldSelectorPodTest, Matches) {
  const MatchCase& c = GetParam();
  ResourceKind pods = PodKind();
  auto selector = FieldSelector::Parse(c.selector);
  ASSERT_TRUE(selector.ok()) << selector.status();
  ASSERT_TRUE(selector->Validate(pods.selectable_fields(Json::object())).ok());
  auto pod = ParseJson(c.object);
  ASSERT_TRUE(pod.ok());
  EXPECT_EQ(selector->Matches(pods.selectable_fields(*pod)), c.matches)
      << c.selector << " on " << c.object;
}

constexpr char kPod[] = R"({"metadata":{"name":"p1","namespace":"ns"},
  "spec":{"nodeName":"n1","schedulerName":"default-scheduler",
          "restartPolicy":"Always","hostNetwork":true},
  "status":{"phase":"Running","podIP":"10.0.0.1",
            "podIPs":[{"ip":"10.0.0.1"}],"nominatedNodeName":"n2"}})";
constexpr char kPending[] = R"({"metadata":{"name":"p2","namespace":"ns"},
  "spec":{},"status":{"phase":"Pending"}})";

INSTANTIATE_TEST_SUITE_P(
    Table, FieldSelectorPodTest,
    ::testing::Values(
        MatchCase{"", kPod, true}, MatchCase{"spec.nodeName=n1", kPod, true},
        MatchCase{"spec.nodeName==n1", kPod, true},
        MatchCase{"spec.nodeName!=n1", kPod, false},
        MatchCase{"spec.nodeName=", kPending, true},  // Unscheduled pods.
        MatchCase{"spec.nodeName=", kPod, false},
        MatchCase{"metadata.name=p1,metadata.namespace=ns", kPod, true},
        MatchCase{"metadata.name=p1,metadata.namespace=other", kPod, false},
        MatchCase{"status.phase!=Succeeded,status.phase!=Failed", kPod, true},
        MatchCase{"spec.hostNetwork=true", kPod, true},
        MatchCase{"spec.hostNetwork=false", kPending, true},
        MatchCase{"status.podIP=10.0.0.1", kPod, true},
        MatchCase{"status.nominatedNodeName=n2", kPod, true},
        MatchCase{"spec.schedulerName=default-scheduler", kPod, true},
        MatchCase{"spec.restartPolicy=Always", kPod, true},
        MatchCase{"spec.serviceAccountName=", kPod, true}));

TEST(FieldSelectorTest, UnknownFieldIsTheRealMessage) {
  auto selector = FieldSelector::Parse("spec.nodeName=n1,x=y");
  ASSERT_TRUE(selector.ok());
  Status s = selector->Validate(PodKind().selectable_fields(Json::object()));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "field label not supported: x");
  // Nodes have no namespace field.
  auto ns = FieldSelector::Parse("metadata.namespace=a");
  ASSERT_TRUE(ns.ok());
  EXPECT_EQ(
      ns->Validate(NodeKind().selectable_fields(Json::object())).message(),
      "field label not supported: metadata.namespace");
}

TEST(FieldSelectorTest, TermWithoutOperatorIsRejected) {
  auto selector = FieldSelector::Parse("spec.nodeName");
  ASSERT_FALSE(selector.ok());
  EXPECT_EQ(selector.status().message(),
            "invalid selector: 'spec.nodeName'; can't understand "
            "'spec.nodeName'");
}

TEST(FieldSelectorTest, EscapedSeparatorsInValues) {
  auto selector = FieldSelector::Parse(R"(reason=a\,b\=c,type!=Warning)");
  ASSERT_TRUE(selector.ok()) << selector.status();
  ASSERT_EQ(selector->requirements().size(), 2u);
  EXPECT_EQ(selector->requirements()[0].value, "a,b=c");
  EXPECT_FALSE(selector->requirements()[1].equals);
  EXPECT_FALSE(FieldSelector::Parse(R"(reason=a\x)").ok());
}

TEST(FieldSelectorTest, NodeAndEventFields) {
  auto node = ParseJson(R"({"metadata":{"name":"n1"},
                            "spec":{"unschedulable":true}})");
  ASSERT_TRUE(node.ok());
  FieldSet nf = NodeKind().selectable_fields(*node);
  EXPECT_EQ(nf["spec.unschedulable"], "true");
  EXPECT_EQ(nf["metadata.name"], "n1");
  auto event = ParseJson(R"({"metadata":{"name":"e","namespace":"ns"},
      "involvedObject":{"kind":"Pod","name":"p1","namespace":"ns",
                        "uid":"u1"},
      "reason":"Scheduled","type":"Normal",
      "source":{"component":"default-scheduler"}})");
  ASSERT_TRUE(event.ok());
  FieldSet ef = EventKind().selectable_fields(*event);
  EXPECT_EQ(ef["involvedObject.kind"], "Pod");
  EXPECT_EQ(ef["involvedObject.name"], "p1");
  EXPECT_EQ(ef["involvedObject.uid"], "u1");
  EXPECT_EQ(ef["reason"], "Scheduled");
  EXPECT_EQ(ef["type"], "Normal");
  EXPECT_EQ(ef["source"], "default-scheduler");
}

}  // namespace
}  // namespace gcushare::apiserver
