// FetchAhead: one fetch (a list's next page) running on its own thread
// while its caller still works on the previous result, so that the server
// and the transport produce page N+1 while page N is decoded and handed
// over (CurlKubeClient::ListEach).
//
// The fetch gets a Cancellation of its own, cancelled when `outer` is (an
// Informer's Stop()) and when the FetchAhead is destroyed before its result
// was taken (a list that failed or went another way): the destructor
// cancels, then joins, so a discarded fetch ends promptly and never
// outlives the objects its function borrows.
//
// Thread-safety: a FetchAhead is used by one thread (its creator); `fetch`
// runs on the helper thread and must be safe to run concurrently with the
// creator's work (CurlKubeClient's requests are). Failure: `fetch`'s
// result, Status included, is what Take() returns; nothing throws (an
// exception escaping `fetch` ends the process, base/guarded_thread.h).
// Ownership: `outer` is borrowed (may be null) and must outlive this.
#ifndef GCUSHARE_KUBE_FETCH_AHEAD_H_
#define GCUSHARE_KUBE_FETCH_AHEAD_H_

#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "base/cancellation.h"
#include "base/guarded_thread.h"
#include "status/status.h"

namespace gcushare::kube {

template <typename T>
class FetchAhead {
 public:
  using Fetch = std::function<StatusOr<T>(base::Cancellation* cancel)>;

  // Starts `fetch` at once; `key` names what it fetches (the continue
  // token), for the caller to check that it is still what it wants.
  FetchAhead(std::string key, base::Cancellation* outer, Fetch fetch)
      : key_(std::move(key)), outer_(outer) {
    if (outer_ != nullptr) {
      waker_ = outer_->AddWaker([this] { cancel_.Cancel(); });
    }
    thread_ = base::StartGuardedThread(
        "list ahead",
        [this, fetch = std::move(fetch)] { result_.emplace(fetch(&cancel_)); });
  }

  ~FetchAhead() {
    cancel_.Cancel();
    if (thread_.joinable()) thread_.join();
    if (outer_ != nullptr) outer_->RemoveWaker(waker_);
  }

  FetchAhead(const FetchAhead&) = delete;
  FetchAhead& operator=(const FetchAhead&) = delete;

  const std::string& key() const { return key_; }

  // Waits for the fetch and returns its result. Once only.
  StatusOr<T> Take() {
    if (thread_.joinable()) thread_.join();
    if (!result_.has_value()) {
      return InternalError("FetchAhead: result taken twice");
    }
    StatusOr<T> result = std::move(*result_);
    result_.reset();
    return result;
  }

 private:
  const std::string key_;
  base::Cancellation* const outer_;
  base::Cancellation::WakerId waker_ = 0;
  base::Cancellation cancel_;
  // Written by the helper thread, read by the creator after join().
  std::optional<StatusOr<T>> result_;
  std::thread thread_;
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_FETCH_AHEAD_H_
