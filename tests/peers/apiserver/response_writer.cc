#include "tests/peers/apiserver/response_writer.h"

namespace gcushare::apiserver {

void WriteJsonText(httplib::Response& res, int code, const std::string& json) {
  res.status = code;
  res.set_header("Cache-Control", "no-cache, private");
  res.set_content(json, "application/json");
}

void WriteJson(httplib::Response& res, int code, const Json& body) {
  WriteJsonText(res, code, DumpJson(body) + "\n");
}

void WriteStatus(httplib::Response& res, const ApiStatus& status) {
  WriteJson(res, status.code() == 0 ? 200 : status.code(), status.ToJson());
}

}  // namespace gcushare::apiserver
