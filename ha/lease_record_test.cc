#include "ha/lease_record.h"

#include <gtest/gtest.h>

namespace gcushare::ha {
namespace {

TEST(LeaseRecordTest, ReadsTheFieldsLeaderElectionUses) {
  auto lease = nlohmann::json::parse(R"({
    "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
    "metadata": {"name": "x", "namespace": "ns", "resourceVersion": "42",
                 "annotations": {"gcushare.enflame.com/leader-url":
                                 "http://10.0.0.7:32766"}},
    "spec": {"holderIdentity": "a_1", "leaseDurationSeconds": 4,
             "acquireTime": "2026-11-28T18:00:00.000000Z",
             "renewTime": "2026-11-28T18:00:01.500000Z",
             "leaseTransitions": 3}})");
  auto record = ParseLease(lease);
  ASSERT_TRUE(record.ok()) << record.status().message();
  EXPECT_EQ(record->holder, "a_1");
  EXPECT_EQ(record->lease_duration_seconds, 4);
  EXPECT_EQ(record->acquire_time, "2026-11-28T18:00:00.000000Z");
  EXPECT_EQ(record->renew_time, "2026-11-28T18:00:01.500000Z");
  EXPECT_EQ(record->transitions, 3);
  EXPECT_EQ(record->leader_url, "http://10.0.0.7:32766");
  EXPECT_EQ(record->resource_version, "42");
}

TEST(LeaseRecordTest, EmptyAndNullFieldsReadAsFree) {
  for (
      const char* text :
      {R"({})", R"({"metadata": null, "spec": null})",
       R"({"spec": {"holderIdentity": null, "leaseDurationSeconds": null}})"}) {
    auto record = ParseLease(nlohmann::json::parse(text));
    ASSERT_TRUE(record.ok()) << text;
    EXPECT_EQ(record->holder, "") << text;
    EXPECT_EQ(record->lease_duration_seconds, 0) << text;
  }
}

TEST(LeaseRecordTest, WrongTypesAreRefused) {
  for (const char* text : {
           R"([])",
           R"({"spec": []})",
           R"({"spec": {"holderIdentity": 7}})",
           R"({"spec": {"leaseDurationSeconds": "4"}})",
           R"({"spec": {"leaseDurationSeconds": 1.5}})",
           R"({"spec": {"leaseDurationSeconds": -1}})",
           R"({"spec": {"leaseTransitions": -2}})",
           R"({"metadata": {"annotations": []}})",
           R"({"metadata": {"resourceVersion": 5}})",
       }) {
    EXPECT_FALSE(ParseLease(nlohmann::json::parse(text)).ok()) << text;
  }
}

TEST(LeaseRecordTest, ObjectRoundTrips) {
  LeaseRecord record;
  record.holder = "b_2";
  record.lease_duration_seconds = 4;
  record.acquire_time = "2026-11-28T18:00:00.000000Z";
  record.renew_time = "2026-11-28T18:00:02.000000Z";
  record.transitions = 1;
  record.leader_url = "http://b:1";
  record.resource_version = "9";
  nlohmann::json lease = LeaseObject("ns", "lock", record);
  EXPECT_EQ(lease["metadata"]["name"], "lock");
  EXPECT_EQ(lease["metadata"]["namespace"], "ns");
  EXPECT_EQ(lease["kind"], "Lease");
  auto back = ParseLease(lease);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->SameRecord(record));
  EXPECT_EQ(back->resource_version, "9");
  record.resource_version = "";
  EXPECT_FALSE(LeaseObject("ns", "lock", record)["metadata"].contains(
      "resourceVersion"));
}

TEST(LeaseRecordTest, SameRecordComparesEveryElectionField) {
  LeaseRecord a;
  a.holder = "a";
  a.renew_time = "t1";
  LeaseRecord b = a;
  b.resource_version = "other";  // Not part of the record.
  EXPECT_TRUE(a.SameRecord(b));
  b.renew_time = "t2";
  EXPECT_FALSE(a.SameRecord(b));
  b = a;
  b.holder = "b";
  EXPECT_FALSE(a.SameRecord(b));
}

TEST(LeaseRecordTest, MicroTimeIsUtcWithMicroseconds) {
  const auto t = std::chrono::system_clock::time_point(
      std::chrono::microseconds(1795889046123456));
  EXPECT_EQ(FormatMicroTime(t), "2026-11-28T18:04:06.123456Z");
  EXPECT_EQ(FormatMicroTime(std::chrono::system_clock::time_point()),
            "1970-01-01T00:00:00.000000Z");
}

}  // namespace
}  // namespace gcushare::ha
