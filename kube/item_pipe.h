// ItemPipe: hands a list's decoded items from the thread that fetches and
// decodes the pages to the thread that called ListEach(), which applies
// them, so that decoding and applying (an Informer's store and handler)
// run on two cores (CurlKubeClient::ListEach).
//
// Order is kept: the consumer sees the size hint and the items in the order
// they were pushed, then the producer's result. Items travel in batches
// (fewer wake-ups); the producer blocks while `max_batches` full batches
// wait, so at most about max_batches * batch_items decoded items are held
// (the bound that keeps a list from being decoded into memory whole).
//
// Thread-safety: one producer thread (Push, PushHint, Close) and one
// consumer thread (Drain); the producer must Close() exactly once, after
// which it pushes nothing. Failure: the producer's Status is Drain()'s
// result; nothing throws out of the pipe.
#ifndef GCUSHARE_KUBE_ITEM_PIPE_H_
#define GCUSHARE_KUBE_ITEM_PIPE_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "status/status.h"

namespace gcushare::kube {

class ItemPipe {
 public:
  explicit ItemPipe(size_t batch_items = 64, size_t max_batches = 16);
  ItemPipe(const ItemPipe&) = delete;
  ItemPipe& operator=(const ItemPipe&) = delete;

  // Producer: queues `item`; blocks while the pipe is full.
  void Push(nlohmann::json item);
  // Producer: queues a size hint, delivered before the items pushed after.
  void PushHint(size_t expected);
  // Producer: flushes what is queued and ends the pipe with `result`.
  void Close(StatusOr<std::string> result);

  // Consumer: runs `hint` and `each` on the calling thread, in push order,
  // until the pipe is closed and empty; returns the producer's result.
  StatusOr<std::string> Drain(const std::function<void(nlohmann::json)>& each,
                              const std::function<void(size_t)>& hint);

 private:
  struct Batch {
    std::optional<size_t> hint;  // Delivered before `items`.
    std::vector<nlohmann::json> items;
  };
  // Moves `filling_` to the queue, waiting for room. Producer only.
  void Flush();

  const size_t batch_items_;
  const size_t max_batches_;
  Batch filling_;  // Producer only.

  std::mutex mu_;
  std::condition_variable room_;   // The queue has room (producer waits).
  std::condition_variable ready_;  // A batch or the end (consumer waits).
  std::deque<Batch> queue_;        // Guarded by mu_.
  std::optional<StatusOr<std::string>> result_;  // Guarded by mu_.
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_ITEM_PIPE_H_
