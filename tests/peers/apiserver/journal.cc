#include "tests/peers/apiserver/journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <map>
#include <utility>

namespace gcushare::apiserver {
namespace {

Status WriteAll(int fd, const std::string& data, const std::string& path) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoToStatus(errno, "write " + path);
    }
    done += static_cast<size_t>(n);
  }
  return OkStatus();
}

StatusOr<std::string> ReadWholeFile(const std::string& path, bool* missing) {
  *missing = false;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      *missing = true;
      return std::string();
    }
    return ErrnoToStatus(errno, "open " + path);
  }
  std::string data;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0) {
      if (errno == EINTR) continue;
      Status s = ErrnoToStatus(errno, "read " + path);
      ::close(fd);
      return s;
    }
    if (n == 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return data;
}

Status ReplayInto(const std::string& path, const std::string& data,
                  Journal::State* state) {
  // (resource, key) -> index into entries, which keep first-put order.
  std::map<std::pair<std::string, std::string>, size_t> index;
  std::vector<Journal::Entry> entries;
  std::vector<bool> live;
  size_t line_no = 0;
  size_t start = 0;
  while (start < data.size()) {
    size_t end = data.find('\n', start);
    bool last = end == std::string::npos;
    std::string line =
        data.substr(start, last ? std::string::npos : end - start);
    start = last ? data.size() : end + 1;
    ++line_no;
    if (line.empty()) continue;
    auto parsed = ParseJson(line);
    bool valid = parsed.ok() && parsed->is_object() && parsed->contains("rv") &&
                 (*parsed)["rv"].is_number() && parsed->contains("op") &&
                 (*parsed)["op"].is_string();
    if (!valid) {
      // A torn final line is the trace of a kill mid-write.
      if (last || start >= data.size()) break;
      return DataLossError(path + " line " + std::to_string(line_no) +
                           ": not a journal record");
    }
    const Json& rec = *parsed;
    int64_t rv = rec["rv"].get<int64_t>();
    if (rv > state->rv) state->rv = rv;
    std::string op = rec["op"].get<std::string>();
    if (op == "rv") continue;
    std::string resource = rec.value("resource", "");
    std::string key = rec.value("key", "");
    auto id = std::make_pair(resource, key);
    if (op == "put") {
      auto it = index.find(id);
      if (it == index.end()) {
        index[id] = entries.size();
        entries.push_back({resource, key, rec.value("object", Json())});
        live.push_back(true);
      } else {
        entries[it->second].object = rec.value("object", Json());
        live[it->second] = true;
      }
    } else if (op == "delete") {
      auto it = index.find(id);
      if (it != index.end()) live[it->second] = false;
    }
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    if (live[i]) state->objects.push_back(std::move(entries[i]));
  }
  return OkStatus();
}

Json PutRecord(int64_t rv, const std::string& resource, const std::string& key,
               const Json& object) {
  Json rec = Json::object();
  rec["rv"] = rv;
  rec["op"] = "put";
  rec["resource"] = resource;
  rec["key"] = key;
  rec["object"] = object;
  return rec;
}

}  // namespace

StatusOr<std::unique_ptr<Journal>> Journal::Open(const std::string& path,
                                                 State* state) {
  *state = State();
  bool missing = false;
  GCUSHARE_ASSIGN_OR_RETURN(std::string data, ReadWholeFile(path, &missing));
  GCUSHARE_RETURN_IF_ERROR(ReplayInto(path, data, state));

  // Compact: live objects plus the counter, atomically replacing the file.
  std::string compacted;
  for (const Entry& e : state->objects) {
    int64_t rv = 0;
    const Json& meta = e.object.value("metadata", Json::object());
    std::string rv_text = meta.value("resourceVersion", "0");
    rv = std::strtoll(rv_text.c_str(), nullptr, 10);
    compacted += DumpJson(PutRecord(rv, e.resource, e.key, e.object)) + "\n";
  }
  Json counter = Json::object();
  counter["rv"] = state->rv;
  counter["op"] = "rv";
  compacted += DumpJson(counter) + "\n";
  std::string tmp = path + ".tmp";
  int tfd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (tfd < 0) return ErrnoToStatus(errno, "create " + tmp);
  Status s = WriteAll(tfd, compacted, tmp);
  if (s.ok() && ::fsync(tfd) != 0) s = ErrnoToStatus(errno, "fsync " + tmp);
  ::close(tfd);
  if (!s.ok()) return s;
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    return ErrnoToStatus(errno, "rename " + tmp + " to " + path);
  }
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return ErrnoToStatus(errno, "open " + path);
  return std::unique_ptr<Journal>(new Journal(path, fd));
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

Status Journal::AppendLine(const Json& record) {
  return WriteAll(fd_, DumpJson(record) + "\n", path_);
}

Status Journal::AppendPut(int64_t rv, const std::string& resource,
                          const std::string& key, const Json& object) {
  return AppendLine(PutRecord(rv, resource, key, object));
}

Status Journal::AppendDelete(int64_t rv, const std::string& resource,
                             const std::string& key) {
  Json rec = Json::object();
  rec["rv"] = rv;
  rec["op"] = "delete";
  rec["resource"] = resource;
  rec["key"] = key;
  return AppendLine(rec);
}

}  // namespace gcushare::apiserver
