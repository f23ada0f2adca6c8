// Journal: optional persistence of the store (--state-file), in the spirit of
// etcd's write-ahead log, so that a stand-in killed with SIGKILL and started
// again serves the same objects and never reuses a resourceVersion.
//
// The file holds JSON lines: {"rv":N,"op":"put","resource":"pods",
// "key":"ns/name","object":{...}} for a create or update,
// {"rv":N,"op":"delete","resource":"pods","key":"ns/name"} for a delete, and
// {"rv":N,"op":"rv"} recording the counter. Open() replays the file, then
// compacts it (one put line per live object plus the counter line, written to
// a temporary file, fsynced and renamed over the old one) and keeps it open
// for appending. Each append is one write(2) of a whole line, so a killed
// process leaves at most a torn last line, which the next Open() ignores.
//
// Failure: Open returns DataLoss for a malformed line before the last one and
// the errno-derived Status for I/O errors; Append returns the write error.
// Ownership: owns the file descriptor. Thread-safety: not thread-safe; the
// store calls it under its lock.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_JOURNAL_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_JOURNAL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "status/status.h"
#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {

class Journal {
 public:
  struct Entry {
    std::string resource;
    std::string key;
    Json object;
  };
  struct State {
    int64_t rv = 0;              // The highest resourceVersion ever issued.
    std::vector<Entry> objects;  // Live objects, in file order.
  };

  // Replays and compacts `path` (a missing file is an empty state), filling
  // `state`, and opens it for appending.
  static StatusOr<std::unique_ptr<Journal>> Open(const std::string& path,
                                                 State* state);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  Status AppendPut(int64_t rv, const std::string& resource,
                   const std::string& key, const Json& object);
  Status AppendDelete(int64_t rv, const std::string& resource,
                      const std::string& key);

 private:
  Journal(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  Status AppendLine(const Json& record);

  std::string path_;
  int fd_ = -1;
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_JOURNAL_H_
