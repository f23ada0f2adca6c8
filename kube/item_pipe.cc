#include "kube/item_pipe.h"

#include <utility>

namespace gcushare::kube {

ItemPipe::ItemPipe(size_t batch_items, size_t max_batches)
    : batch_items_(batch_items < 1 ? 1 : batch_items),
      max_batches_(max_batches < 1 ? 1 : max_batches) {
  filling_.items.reserve(batch_items_);
}

void ItemPipe::Push(nlohmann::json item) {
  filling_.items.push_back(std::move(item));
  if (filling_.items.size() >= batch_items_) Flush();
}

void ItemPipe::PushHint(size_t expected) {
  if (!filling_.items.empty()) Flush();
  filling_.hint = expected;
}

void ItemPipe::Flush() {
  Batch batch = std::move(filling_);
  filling_ = Batch();
  filling_.items.reserve(batch_items_);
  std::unique_lock<std::mutex> lock(mu_);
  room_.wait(lock, [this] { return queue_.size() < max_batches_; });
  queue_.push_back(std::move(batch));
  ready_.notify_one();
}

void ItemPipe::Close(StatusOr<std::string> result) {
  if (filling_.hint.has_value() || !filling_.items.empty()) Flush();
  std::lock_guard<std::mutex> lock(mu_);
  result_.emplace(std::move(result));
  ready_.notify_one();
}

StatusOr<std::string> ItemPipe::Drain(
    const std::function<void(nlohmann::json)>& each,
    const std::function<void(size_t)>& hint) {
  for (;;) {
    Batch batch;
    {
      std::unique_lock<std::mutex> lock(mu_);
      ready_.wait(lock, [this] { return !queue_.empty() || result_; });
      if (queue_.empty()) {
        // Closed, and everything before the end was delivered.
        StatusOr<std::string> result = std::move(*result_);
        result_.reset();
        return result;
      }
      batch = std::move(queue_.front());
      queue_.pop_front();
      room_.notify_one();
    }
    if (batch.hint.has_value() && hint) hint(*batch.hint);
    for (nlohmann::json& item : batch.items) each(std::move(item));
  }
}

}  // namespace gcushare::kube
