#include "status/status.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <memory>
#include <string>

namespace gcushare {
namespace {

TEST(StatusTest, DefaultIsOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.ToString(), "OK");
}

TEST(StatusTest, ErrorCarriesCodeAndMessage) {
  Status s = NotFoundError("no card 3");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(s.ToString(), "NOT_FOUND: no card 3");
}

TEST(StatusTest, OkCodeDropsMessage) {
  Status s(StatusCode::kOk, "ignored");
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.message(), "");
}

TEST(StatusTest, WithContextPrefixesErrorsOnly) {
  EXPECT_EQ(InvalidArgumentError("bad").WithContext("file x").message(),
            "file x: bad");
  EXPECT_TRUE(OkStatus().WithContext("file x").ok());
}

TEST(StatusTest, HttpCodeTravelsWithContext) {
  Status s = AbortedError("conflict").WithHttpCode(409).WithContext("bind");
  EXPECT_EQ(s.http_code(), 409);
  EXPECT_EQ(s.message(), "bind: conflict");
  EXPECT_EQ(OkStatus().WithHttpCode(500).http_code(), 0);
}

TEST(StatusTest, ErrnoMapping) {
  EXPECT_EQ(ErrnoToStatus(ENOENT, "open /x").code(), StatusCode::kNotFound);
  EXPECT_EQ(ErrnoToStatus(EACCES, "open /x").code(),
            StatusCode::kPermissionDenied);
  EXPECT_EQ(ErrnoToStatus(ENOENT, "open /x").message(),
            "open /x: No such file or directory");
}

StatusOr<int> Half(int x) {
  if (x % 2 != 0) return InvalidArgumentError("odd");
  return x / 2;
}

Status UseHalf(int x, int* out) {
  GCUSHARE_ASSIGN_OR_RETURN(int h, Half(x));
  *out = h;
  return OkStatus();
}

TEST(StatusOrTest, ValueAndError) {
  StatusOr<int> a = Half(4);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*a, 2);
  StatusOr<int> b = Half(3);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().message(), "odd");
}

TEST(StatusOrTest, AssignOrReturnPropagates) {
  int out = -1;
  EXPECT_TRUE(UseHalf(8, &out).ok());
  EXPECT_EQ(out, 4);
  out = -1;
  EXPECT_EQ(UseHalf(7, &out).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(out, -1);
}

TEST(StatusOrTest, FromOkStatusBecomesInternal) {
  StatusOr<int> s(OkStatus());
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInternal);
}

TEST(StatusOrTest, MoveOnlyValue) {
  StatusOr<std::unique_ptr<int>> p = std::make_unique<int>(7);
  ASSERT_TRUE(p.ok());
  std::unique_ptr<int> v = std::move(p).value();
  EXPECT_EQ(*v, 7);
}

TEST(StatusOrDeathTest, ReadingErrorValueAborts) {
  StatusOr<int> s = NotFoundError("gone");
  EXPECT_DEATH((void)s.value(), "gone");
}

}  // namespace
}  // namespace gcushare
