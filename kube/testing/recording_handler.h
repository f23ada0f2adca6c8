// An InformerHandler for tests: records every callback as a line
// ("add p1@11", "update p1@11->12", "delete p1@12": name@resourceVersion)
// and keeps the cache a consumer would build from them (name ->
// resourceVersion), so tests can assert both the sequence of callbacks and
// their net effect, and wait (bounded, real time) for them to arrive.
//
// Thread-safety: the callbacks run on the informer's thread; every other
// method may be called from any thread.
#ifndef GCUSHARE_KUBE_TESTING_RECORDING_HANDLER_H_
#define GCUSHARE_KUBE_TESTING_RECORDING_HANDLER_H_

#include <chrono>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "kube/informer.h"

namespace gcushare::kube::testing {

class RecordingHandler : public InformerHandler {
 public:
  void OnAdd(const nlohmann::json& object) override;
  void OnUpdate(const nlohmann::json& old_object,
                const nlohmann::json& new_object) override;
  void OnDelete(const nlohmann::json& last_state) override;

  // What WaitUntil() checks: the log and the cache, read under the lock.
  using Condition =
      std::function<bool(const std::vector<std::string>& log,
                         const std::map<std::string, std::string>& cache)>;
  // Waits until `done` holds (checked now and after each callback); false
  // when `timeout` passes first.
  bool WaitUntil(const Condition& done,
                 std::chrono::milliseconds timeout = std::chrono::seconds(30));
  // Waits until at least `count` callbacks were recorded.
  bool WaitForLog(size_t count,
                  std::chrono::milliseconds timeout = std::chrono::seconds(30));

  std::vector<std::string> log();
  // name -> resourceVersion as the consumer's cache sees it.
  std::map<std::string, std::string> cache();

 private:
  void Record(std::string entry, const nlohmann::json& object, bool erase);

  base::Mutex mu_;
  base::CondVar cv_;
  std::vector<std::string> log_ GUARDED_BY(mu_);
  std::map<std::string, std::string> cache_ GUARDED_BY(mu_);
};

}  // namespace gcushare::kube::testing

#endif  // GCUSHARE_KUBE_TESTING_RECORDING_HANDLER_H_
