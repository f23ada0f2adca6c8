#include "kube/testing/recording_handler.h"

#include <utility>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "kube/json_fields.h"

namespace gcushare::kube::testing {
namespace {

std::string Describe(const nlohmann::json& object) {
  return NameOf(object) + "@" + ResourceVersionOf(object);
}

}  // namespace

void RecordingHandler::OnAdd(const nlohmann::json& object) {
  Record("add " + Describe(object), object, false);
}

void RecordingHandler::OnUpdate(const nlohmann::json& old_object,
                                const nlohmann::json& new_object) {
  Record("update " + NameOf(new_object) + "@" + ResourceVersionOf(old_object) +
             "->" + ResourceVersionOf(new_object),
         new_object, false);
}

void RecordingHandler::OnDelete(const nlohmann::json& last_state) {
  Record("delete " + Describe(last_state), last_state, true);
}

bool RecordingHandler::WaitUntil(const Condition& done,
                                 std::chrono::milliseconds timeout) {
  base::MutexLock lock(mu_);
  return cv_.WaitFor(lock, timeout,
                     [&]() REQUIRES(mu_) { return done(log_, cache_); });
}

bool RecordingHandler::WaitForLog(size_t count,
                                  std::chrono::milliseconds timeout) {
  return WaitUntil(
      [count](const std::vector<std::string>& log,
              const std::map<std::string, std::string>&) {
        return log.size() >= count;
      },
      timeout);
}

std::vector<std::string> RecordingHandler::log() {
  base::MutexLock lock(mu_);
  return log_;
}

std::map<std::string, std::string> RecordingHandler::cache() {
  base::MutexLock lock(mu_);
  return cache_;
}

void RecordingHandler::Record(std::string entry, const nlohmann::json& object,
                              bool erase) {
  base::MutexLock lock(mu_);
  log_.push_back(std::move(entry));
  if (erase) {
    cache_.erase(NameOf(object));
  } else {
    cache_[NameOf(object)] = ResourceVersionOf(object);
  }
  cv_.NotifyAll();
}

}  // namespace gcushare::kube::testing
