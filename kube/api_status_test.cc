#include "kube/api_status.h"

#include <gtest/gtest.h>

#include "kube/testing/api_objects.h"

namespace gcushare::kube {
namespace {

using ::gcushare::kube::testing::FailureStatus;

TEST(ApiStatusTest, MapsHttpCodesAndReasons) {
  struct Case {
    int http;
    std::string reason;
    StatusCode want;
  };
  const std::vector<Case> cases = {
      {400, "BadRequest", StatusCode::kInvalidArgument},
      {401, "Unauthorized", StatusCode::kUnauthenticated},
      {403, "Forbidden", StatusCode::kPermissionDenied},
      {404, "NotFound", StatusCode::kNotFound},
      {409, "AlreadyExists", StatusCode::kAlreadyExists},
      {409, "Conflict", StatusCode::kAborted},
      {410, "Expired", StatusCode::kOutOfRange},
      {410, "Gone", StatusCode::kOutOfRange},
      {422, "Invalid", StatusCode::kInvalidArgument},
      {429, "TooManyRequests", StatusCode::kResourceExhausted},
      {500, "InternalError", StatusCode::kUnavailable},
      {503, "ServiceUnavailable", StatusCode::kUnavailable},
      {504, "Timeout", StatusCode::kUnavailable},
  };
  for (const Case& c : cases) {
    Status status = StatusFromHttpResponse(
        c.http, FailureStatus(c.http, c.reason, "details here").dump());
    EXPECT_EQ(status.code(), c.want) << c.http << " " << c.reason;
    EXPECT_EQ(status.http_code(), c.http);
    EXPECT_EQ(status.message(), c.reason + ": details here");
  }
}

TEST(ApiStatusTest, ConflictMessageReadsLikeTheServer) {
  Status status = StatusFromHttpResponse(
      409, FailureStatus(409, "Conflict",
                         "pod p1 is already assigned to node \"n1\"")
               .dump());
  EXPECT_EQ(status.code(), StatusCode::kAborted);
  EXPECT_EQ(status.http_code(), 409);
  EXPECT_EQ(status.message(),
            "Conflict: pod p1 is already assigned to node \"n1\"");
}

TEST(ApiStatusTest, NonJsonBodyStillGivesAClearError) {
  Status status = StatusFromHttpResponse(502, "<html>Bad Gateway</html>\n");
  EXPECT_EQ(status.code(), StatusCode::kUnavailable);
  EXPECT_EQ(status.http_code(), 502);
  EXPECT_EQ(status.message(), "HTTP 502: <html>Bad Gateway</html>");

  Status empty = StatusFromHttpResponse(403, "");
  EXPECT_EQ(empty.code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(empty.message(), "HTTP 403 (empty body)");

  Status long_body = StatusFromHttpResponse(500, std::string(1000, 'x'));
  EXPECT_LT(long_body.message().size(), 220u);
}

TEST(ApiStatusTest, HttpCodeWinsOverTheBodyCode) {
  Status status =
      StatusFromHttpResponse(404, FailureStatus(0, "NotFound", "gone").dump());
  EXPECT_EQ(status.http_code(), 404);
  EXPECT_EQ(status.code(), StatusCode::kNotFound);
}

TEST(ApiStatusTest, StatusObjectFromWatchError) {
  Status status =
      StatusFromApiStatus(FailureStatus(410, "Gone", "rv gone"), 500);
  EXPECT_EQ(status.http_code(), 410);
  EXPECT_EQ(status.message(), "Gone: rv gone");
  Status no_code = StatusFromApiStatus({{"message", "boom"}}, 500);
  EXPECT_EQ(no_code.http_code(), 500);
  EXPECT_EQ(no_code.code(), StatusCode::kUnavailable);
  EXPECT_EQ(no_code.message(), "boom");
}

TEST(ApiStatusTest, RetryAfterSecondsFromDetails) {
  nlohmann::json status = FailureStatus(429, "TooManyRequests", "slow down");
  status["details"] = {{"retryAfterSeconds", 3}};
  EXPECT_EQ(RetryAfterSecondsFromBody(status.dump()), 3);
  EXPECT_EQ(RetryAfterSecondsFromBody("{}"), std::nullopt);
  EXPECT_EQ(RetryAfterSecondsFromBody("not json"), std::nullopt);
}

}  // namespace
}  // namespace gcushare::kube
