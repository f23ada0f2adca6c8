#include "config-manager/kube_version.h"

#include <gtest/gtest.h>

namespace gcushare::config_manager {
namespace {

TEST(KubeVersionTest, ParsesVersions) {
  struct Case {
    const char* text;
    int minor;
  };
  for (const Case& c : {Case{"1.28", 28}, Case{"v1.28.2", 28},
                        Case{"V1.22.17", 22}, Case{"v1.27.3-eks-1234", 27},
                        Case{"1.30.0+k3s1", 30}, Case{"v1.31.0-rc.1", 31}}) {
    auto v = ParseKubeVersion(c.text);
    ASSERT_TRUE(v.ok()) << c.text << ": " << v.status().ToString();
    EXPECT_EQ(v->major, 1) << c.text;
    EXPECT_EQ(v->minor, c.minor) << c.text;
  }
}

TEST(KubeVersionTest, RejectsNonVersions) {
  for (const char* text :
       {"", "v", "1", "1.", "latest", "v1.x", "2.1", "1.28x", "x1.28"}) {
    auto v = ParseKubeVersion(text);
    EXPECT_FALSE(v.ok()) << text;
    EXPECT_EQ(v.status().code(), StatusCode::kInvalidArgument) << text;
  }
}

TEST(KubeVersionTest, ReadsTheImageTag) {
  struct Case {
    const char* image;
    int minor;
  };
  for (const Case& c : {Case{"registry.k8s.io/kube-scheduler:v1.28.2", 28},
                        Case{"k8s.gcr.io/kube-scheduler:v1.22.17", 22},
                        Case{"localhost:5000/kube-scheduler:v1.31.0", 31},
                        Case{"kube-scheduler:v1.25.0@sha256:abcdef", 25}}) {
    auto v = KubeVersionFromImage(c.image);
    ASSERT_TRUE(v.ok()) << c.image << ": " << v.status().ToString();
    EXPECT_EQ(v->minor, c.minor) << c.image;
  }
  for (const char* image :
       {"registry.k8s.io/kube-scheduler", "localhost:5000/kube-scheduler",
        "kube-scheduler@sha256:abcdef", "kube-scheduler:latest"}) {
    auto v = KubeVersionFromImage(image);
    ASSERT_FALSE(v.ok()) << image;
    EXPECT_NE(v.status().message().find("--kubernetes-version"),
              std::string::npos)
        << v.status().message();
  }
}

TEST(KubeVersionTest, ApiVersionPerRelease) {
  struct Case {
    int minor;
    const char* api;
  };
  for (const Case& c :
       {Case{19, "v1beta1"}, Case{21, "v1beta1"}, Case{22, "v1beta2"},
        Case{23, "v1beta3"}, Case{24, "v1beta3"}, Case{25, "v1"},
        Case{28, "v1"}, Case{31, "v1"}, Case{40, "v1"}}) {
    auto api = SchedulerConfigApiVersion({1, c.minor});
    ASSERT_TRUE(api.ok()) << c.minor;
    EXPECT_EQ(*api, std::string("kubescheduler.config.k8s.io/") + c.api)
        << c.minor;
  }
  auto old = SchedulerConfigApiVersion({1, 18});
  EXPECT_EQ(old.status().code(), StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace gcushare::config_manager
