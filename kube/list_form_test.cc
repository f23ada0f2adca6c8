#include "kube/list_form.h"

#include <gtest/gtest.h>

#include "kube/server_version.h"

namespace gcushare::kube {
namespace {

TEST(ServerVersionTest, ParsesWhatApiServersReport) {
  struct Case {
    nlohmann::json version;
    int major, minor;
  };
  const Case cases[] = {
      {{{"major", "1"}, {"minor", "26"}, {"gitVersion", "v1.26.4"}}, 1, 26},
      {{{"major", "1"}, {"minor", "31+"}}, 1, 31},  // GKE, EKS.
      {{{"major", "1"}, {"minor", "36"}}, 1, 36},
  };
  for (const Case& c : cases) {
    StatusOr<ServerVersion> parsed = ParseServerVersion(c.version);
    ASSERT_TRUE(parsed.ok()) << c.version << ": " << parsed.status();
    EXPECT_EQ(parsed->major, c.major);
    EXPECT_EQ(parsed->minor, c.minor);
  }
  EXPECT_EQ(ParseServerVersion(cases[0].version)->git_version, "v1.26.4");
  EXPECT_TRUE(ParseServerVersion(cases[1].version)->AtLeast(1, 31));
  EXPECT_FALSE(ParseServerVersion(cases[0].version)->AtLeast(1, 27));
}

TEST(ServerVersionTest, RefusesWhatIsNotAVersion) {
  for (const nlohmann::json& bad :
       {nlohmann::json("v1.26"), nlohmann::json::object(),
        nlohmann::json{{"major", "1"}},
        nlohmann::json{{"major", 1}, {"minor", "2"}},
        nlohmann::json{{"major", "1"}, {"minor", "x"}},
        nlohmann::json{{"major", "1"}, {"minor", "26-gke"}}}) {
    EXPECT_FALSE(ParseServerVersion(bad).ok()) << bad;
  }
}

TEST(ListFormTest, TheWatchCacheOnEveryVersion) {
  for (int minor = 20; minor <= 36; ++minor) {
    EXPECT_EQ(ChooseListForm({1, minor, ""}), ListForm::kWatchCache) << minor;
  }
}

TEST(ListFormTest, NamesRoundTrip) {
  for (ListForm form : {ListForm::kWatchCache, ListForm::kConsistentPaged}) {
    StatusOr<ListForm> parsed = ParseListForm(ListFormName(form));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, form);
  }
  EXPECT_FALSE(ParseListForm("etcd").ok());
}

}  // namespace
}  // namespace gcushare::kube
