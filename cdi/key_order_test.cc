#include "cdi/key_order.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;

TEST(KeyOrderTest, SchemaOrderThenUnknownKeysAlphabetically) {
  Json spec = Json::parse(R"({"zeta": 1, "devices": [], "kind": "k",
      "containerEdits": {}, "cdiVersion": "0.5.0", "alpha": 2,
      "annotations": {}})");
  EXPECT_EQ(
      OrderedKeys(spec),
      (std::vector<std::string>{"cdiVersion", "kind", "annotations", "devices",
                                "containerEdits", "alpha", "zeta"}));
  Json node = Json::parse(
      R"({"minor": 0, "type": "c", "major": 1, "path": "/d", "gid": 0})");
  EXPECT_EQ(OrderedKeys(node), (std::vector<std::string>{
                                   "path", "type", "major", "minor", "gid"}));
  EXPECT_TRUE(OrderedKeys(Json::array()).empty());
}

TEST(KeyOrderTest, InWritingOrderKeepsValuesAndOrdersEveryLevel) {
  Json tree = Json::parse(R"({"devices": [{"containerEdits": {"env": ["A=1"]},
      "name": "0"}], "kind": "k", "n": -3, "u": 18446744073709551615,
      "f": 1.5, "b": true, "z": null})");
  nlohmann::ordered_json ordered = InWritingOrder(tree);
  EXPECT_EQ(ordered.dump(),
            R"({"kind":"k","devices":[{"name":"0","containerEdits":)"
            R"({"env":["A=1"]}}],"b":true,"f":1.5,"n":-3,)"
            R"("u":18446744073709551615,"z":null})");
  EXPECT_EQ(Json::parse(ordered.dump()), tree);
}

}  // namespace
}  // namespace gcushare::cdi
