// Writes API responses the way the real server does: JSON bodies ended by a
// newline (Go's json.Encoder), Content-Type application/json and
// Cache-Control "no-cache, private"; errors as Status objects whose HTTP code
// is the Status's code.
//
// Thread-safety: functions on the caller's response. Failure: none.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_RESPONSE_WRITER_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_RESPONSE_WRITER_H_

#include <httplib.h>

#include <string>

#include "tests/peers/apiserver/api_status.h"
#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {

// `json` is sent as is (callers add the newline).
void WriteJsonText(httplib::Response& res, int code, const std::string& json);
void WriteJson(httplib::Response& res, int code, const Json& body);
void WriteStatus(httplib::Response& res, const ApiStatus& status);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_RESPONSE_WRITER_H_
