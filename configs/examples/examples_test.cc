// The example workloads in configs/examples ask for what their comments
// say, computed with the extender's own pod-request code.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <string>

#include "contract/pod_request.h"
#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare {
namespace {

// YAML -> JSON as the API server would decode it: plain scalars that look
// like integers or booleans become those, quoted ones stay strings.
nlohmann::json ToJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json out = nlohmann::json::object();
      for (const auto& kv : node) out[kv.first.Scalar()] = ToJson(kv.second);
      return out;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json out = nlohmann::json::array();
      for (const YAML::Node& item : node) out.push_back(ToJson(item));
      return out;
    }
    case YAML::NodeType::Scalar: {
      if (node.Tag() != "!") {
        int64_t number;
        bool flag;
        if (YAML::convert<int64_t>::decode(node, number)) return number;
        if (YAML::convert<bool>::decode(node, flag)) return flag;
      }
      return node.Scalar();
    }
    default:
      return nullptr;
  }
}

nlohmann::json LoadPod(const std::string& file) {
  std::string text = testing::ReadFileOrEmpty(
      testing::RunfilePath("configs/examples/" + file));
  EXPECT_FALSE(text.empty()) << file;
  nlohmann::json object = ToJson(YAML::Load(text));
  if (object["kind"] == "Pod") return object;
  EXPECT_EQ(object["kind"], "Deployment") << file;
  return object["spec"]["template"];
}

TEST(ExamplesTest, SharedPodAsksForFourUnits) {
  auto request = contract::ComputePodRequest(LoadPod("pod-shared.yaml"));
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->memory_units, 4u);
  EXPECT_EQ(request->cards, 0u);
  ASSERT_EQ(request->containers.size(), 1u);
  EXPECT_EQ(request->containers[0].name, "main");
}

TEST(ExamplesTest, MultiContainerPodNeedsEightUnitsOnOneCard) {
  auto request =
      contract::ComputePodRequest(LoadPod("pod-multi-container.yaml"));
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->memory_units, 8u);
  EXPECT_FALSE(request->Mixed());
  ASSERT_EQ(request->containers.size(), 2u);  // The log shipper asks for none.
  EXPECT_EQ(request->containers[0].name, "model");
  EXPECT_EQ(request->containers[0].memory_units, 6u);
  EXPECT_EQ(request->containers[1].name, "tokenizer");
  EXPECT_EQ(request->containers[1].memory_units, 2u);
}

TEST(ExamplesTest, WholeCardPodAsksForTwoCards) {
  auto request = contract::ComputePodRequest(LoadPod("pod-whole-card.yaml"));
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->cards, 2u);
  EXPECT_EQ(request->memory_units, 0u);
}

TEST(ExamplesTest, DeploymentReplicasAskForTwoUnitsEach) {
  auto request = contract::ComputePodRequest(LoadPod("deployment-shared.yaml"));
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->memory_units, 2u);
}

}  // namespace
}  // namespace gcushare
