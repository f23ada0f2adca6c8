#include "tests/peers/apiserver/object_store.h"

#include <algorithm>
#include <utility>

#include "tests/peers/apiserver/object_meta.h"

namespace gcushare::apiserver {

ObjectStore::ObjectStore(Options options) : options_(std::move(options)) {}

ObjectPtr ObjectStore::Publish(Json object, int64_t rv) {
  auto stored = std::make_shared<StoredObject>();
  SetResourceVersion(object, rv);
  stored->json = DumpJson(object);
  stored->object = std::move(object);
  stored->rv = rv;
  return stored;
}

void ObjectStore::Restore(const Journal::State& state) {
  base::MutexLock lock(mu_);
  objects_.clear();
  history_.clear();
  for (const Journal::Entry& e : state.objects) {
    int64_t rv = ParseResourceVersion(MetaString(e.object, "resourceVersion"));
    auto stored = std::make_shared<StoredObject>();
    stored->object = e.object;
    stored->json = DumpJson(e.object);
    stored->rv = rv < 0 ? 0 : rv;
    objects_[e.resource][e.key] = std::move(stored);
  }
  rv_ = state.rv;
  compacted_rv_ = state.rv;
}

int64_t ObjectStore::CurrentRv() const {
  base::MutexLock lock(mu_);
  return rv_;
}

int64_t ObjectStore::OldestResumableRv() const {
  base::MutexLock lock(mu_);
  return compacted_rv_;
}

StatusOr<ObjectPtr> ObjectStore::Get(const std::string& resource,
                                     const std::string& key) const {
  base::MutexLock lock(mu_);
  auto r = objects_.find(resource);
  if (r != objects_.end()) {
    auto it = r->second.find(key);
    if (it != r->second.end()) return it->second;
  }
  return NotFoundError(resource + " " + key + " not found");
}

StatusOr<ObjectPtr> ObjectStore::Create(const std::string& resource,
                                        const std::string& key, Json object) {
  base::MutexLock lock(mu_);
  auto& objects = objects_[resource];
  if (objects.count(key) != 0) {
    return AlreadyExistsError(resource + " " + key + " already exists");
  }
  int64_t rv = rv_ + 1;
  ObjectPtr stored = Publish(std::move(object), rv);
  if (options_.journal != nullptr) {
    GCUSHARE_RETURN_IF_ERROR(
        options_.journal->AppendPut(rv, resource, key, stored->object));
  }
  rv_ = rv;
  objects[key] = stored;
  RecordLocked({EventType::kAdded, resource, key, rv, stored, nullptr});
  return stored;
}

StatusOr<ObjectPtr> ObjectStore::Replace(const std::string& resource,
                                         const std::string& key, Json object,
                                         int64_t expected_rv) {
  base::MutexLock lock(mu_);
  auto& objects = objects_[resource];
  auto it = objects.find(key);
  if (it == objects.end()) {
    return NotFoundError(resource + " " + key + " not found");
  }
  ObjectPtr prev = it->second;
  if (prev->rv != expected_rv) {
    return AbortedError(resource + " " + key + " changed");
  }
  // A no-op update writes nothing, like etcd3's GuaranteedUpdate.
  SetResourceVersion(object, prev->rv);
  if (SameJson(object, prev->object)) return prev;
  int64_t rv = rv_ + 1;
  ObjectPtr stored = Publish(std::move(object), rv);
  if (options_.journal != nullptr) {
    GCUSHARE_RETURN_IF_ERROR(
        options_.journal->AppendPut(rv, resource, key, stored->object));
  }
  rv_ = rv;
  it->second = stored;
  RecordLocked({EventType::kModified, resource, key, rv, stored, prev});
  return stored;
}

StatusOr<ObjectPtr> ObjectStore::Delete(const std::string& resource,
                                        const std::string& key,
                                        int64_t expected_rv) {
  base::MutexLock lock(mu_);
  auto& objects = objects_[resource];
  auto it = objects.find(key);
  if (it == objects.end()) {
    return NotFoundError(resource + " " + key + " not found");
  }
  ObjectPtr prev = it->second;
  if (expected_rv != 0 && prev->rv != expected_rv) {
    return AbortedError(resource + " " + key + " changed");
  }
  int64_t rv = rv_ + 1;
  if (options_.journal != nullptr) {
    GCUSHARE_RETURN_IF_ERROR(options_.journal->AppendDelete(rv, resource, key));
  }
  rv_ = rv;
  objects.erase(it);
  ObjectPtr last = Publish(prev->object, rv);
  RecordLocked({EventType::kDeleted, resource, key, rv, last, prev});
  return last;
}

StatusOr<ObjectStore::Snapshot> ObjectStore::List(const std::string& resource,
                                                  int64_t at_rv) const {
  base::MutexLock lock(mu_);
  Snapshot snap;
  std::map<std::string, ObjectPtr> state;
  auto r = objects_.find(resource);
  if (r != objects_.end()) state = r->second;
  snap.rv = rv_;
  if (at_rv != 0 && at_rv < rv_) {
    if (at_rv < compacted_rv_) {
      return OutOfRangeError(
          "too old resource version: " + std::to_string(at_rv) + " (" +
          std::to_string(compacted_rv_) + ")");
    }
    // Undo the newer events of this resource, newest first.
    for (auto it = history_.rbegin(); it != history_.rend() && it->rv > at_rv;
         ++it) {
      if (it->resource != resource) continue;
      if (it->type == EventType::kAdded) {
        state.erase(it->key);
      } else {
        state[it->key] = it->prev;
      }
    }
    snap.rv = at_rv;
  }
  snap.items.assign(state.begin(), state.end());
  return snap;
}

ObjectStore::ObjectMap ObjectStore::UndoSinceLocked(const std::string& resource,
                                                    int64_t at_rv) const {
  ObjectMap undo;
  // Newest first, so each key ends with its state before the oldest newer
  // event.
  for (auto it = history_.rbegin(); it != history_.rend() && it->rv > at_rv;
       ++it) {
    if (it->resource != resource) continue;
    undo[it->key] = it->type == EventType::kAdded ? nullptr : it->prev;
  }
  return undo;
}

template <typename Visit>
void ObjectStore::VisitFrom(const ObjectMap* current, const ObjectMap& undo,
                            const std::string& start, Visit visit) {
  static const ObjectMap kEmpty;
  const ObjectMap& now = current == nullptr ? kEmpty : *current;
  auto a = now.lower_bound(start);
  auto b = undo.lower_bound(start);
  while (a != now.end() || b != undo.end()) {
    const std::string* key;
    const ObjectPtr* object;
    if (b == undo.end() || (a != now.end() && a->first < b->first)) {
      key = &a->first;
      object = &a->second;
      ++a;
    } else {
      if (a != now.end() && a->first == b->first) ++a;
      key = &b->first;
      object = &b->second;
      ++b;
    }
    if (*object == nullptr) continue;  // Did not exist then.
    if (!visit(*key, *object)) return;
  }
}

void ObjectStore::RememberCountLocked(std::string key, int64_t count) const {
  constexpr size_t kMaxCounts = 4096;
  auto [it, inserted] = counts_.insert_or_assign(key, count);
  if (!inserted) return;
  count_order_.push_back(std::move(key));
  while (count_order_.size() > kMaxCounts) {
    counts_.erase(count_order_.front());
    count_order_.pop_front();
  }
}

StatusOr<ObjectStore::Page> ObjectStore::ListPage(const PageSpec& spec) const {
  base::MutexLock lock(mu_);
  Page page;
  page.rv = rv_;
  ObjectMap undo;
  if (spec.at_rv != 0 && spec.at_rv < rv_) {
    if (spec.at_rv < compacted_rv_) {
      return OutOfRangeError(
          "too old resource version: " + std::to_string(spec.at_rv) + " (" +
          std::to_string(compacted_rv_) + ")");
    }
    undo = UndoSinceLocked(spec.resource, spec.at_rv);
    page.rv = spec.at_rv;
  }
  auto r = objects_.find(spec.resource);
  const ObjectMap* current = r == objects_.end() ? nullptr : &r->second;
  auto matches = [&spec](const ObjectPtr& object) {
    return !spec.matches || spec.matches(object->object);
  };
  VisitFrom(current, undo, spec.start,
            [&](const std::string& key, const ObjectPtr& object) {
              if (!matches(object)) return true;
              if (spec.limit > 0 &&
                  static_cast<int64_t>(page.items.size()) == spec.limit) {
                page.more = true;
                return false;
              }
              page.items.emplace_back(key, object);
              return true;
            });
  if (!page.more) {
    page.remaining = spec.count_remaining ? 0 : -1;
    return page;
  }
  // The real token resumes right after the last returned key.
  page.next_start = page.items.back().first + '\0';
  if (!spec.count_remaining) return page;
  const std::string prefix =
      spec.resource + '\0' + spec.scope + '\0' + std::to_string(page.rv) + '\0';
  auto total = counts_.find(prefix);
  auto before =
      spec.start.empty() ? counts_.end() : counts_.find(prefix + spec.start);
  int64_t total_count = total == counts_.end() ? -1 : total->second;
  int64_t before_count = spec.start.empty()        ? 0
                         : before == counts_.end() ? -1
                                                   : before->second;
  if (total_count < 0 || before_count < 0) {
    // First page of this list (or its counts were dropped): one scan.
    total_count = 0;
    before_count = 0;
    VisitFrom(current, undo, "",
              [&](const std::string& key, const ObjectPtr& object) {
                if (!matches(object)) return true;
                ++total_count;
                if (key < spec.start) ++before_count;
                return true;
              });
    RememberCountLocked(prefix, total_count);
  }
  const int64_t through =
      before_count + static_cast<int64_t>(page.items.size());
  RememberCountLocked(prefix + page.next_start, through);
  page.remaining = total_count - through;
  return page;
}

std::string ObjectStore::LineFor(const Watcher& w, const Event& event) {
  bool now =
      event.type != EventType::kDeleted && w.spec.matches(event.object->object);
  bool before = event.prev != nullptr && w.spec.matches(event.prev->object);
  if (now && !before) return EncodeWatchEvent("ADDED", event.object->json);
  if (now && before) return EncodeWatchEvent("MODIFIED", event.object->json);
  if (!now && before) {
    if (event.type == EventType::kDeleted) {
      return EncodeWatchEvent("DELETED", event.object->json);
    }
    // Left the selector: its previous state, at this event's RV.
    Json last = event.prev->object;
    SetResourceVersion(last, event.rv);
    return EncodeWatchEvent("DELETED", DumpJson(last));
  }
  return "";
}

std::string ObjectStore::BookmarkLine(const WatchSpec& spec, int64_t rv,
                                      bool initial_end) const {
  Json object = spec.bookmark_template;
  object["metadata"]["resourceVersion"] = std::to_string(rv);
  if (initial_end) {
    object["metadata"]["annotations"] = {{"k8s.io/initial-events-end", "true"}};
  }
  CanonicalizeObject(object);
  return EncodeWatchEvent("BOOKMARK", DumpJson(object));
}

void ObjectStore::RecordLocked(Event event) {
  for (const Watcher& w : watchers_) {
    if (w.spec.resource != event.resource) continue;
    std::string line = LineFor(w, event);
    if (!line.empty()) w.stream->Push(std::move(line));
  }
  if (options_.history == 0) {
    compacted_rv_ = event.rv;
    return;
  }
  history_.push_back(std::move(event));
  while (history_.size() > options_.history) {
    compacted_rv_ = history_.front().rv;
    history_.pop_front();
  }
}

StatusOr<std::shared_ptr<WatchStream>> ObjectStore::Watch(
    const WatchSpec& spec) {
  base::MutexLock lock(mu_);
  if (closed_) return UnavailableError("the server is shutting down");
  Watcher w{spec, std::make_shared<WatchStream>(options_.stream_capacity)};
  switch (spec.start) {
    case WatchSpec::Start::kInitialState: {
      auto r = objects_.find(spec.resource);
      if (r != objects_.end()) {
        for (const auto& [key, obj] : r->second) {
          if (spec.matches(obj->object)) {
            w.stream->Push(EncodeWatchEvent("ADDED", obj->json));
          }
        }
      }
      if (spec.initial_events_end) {
        w.stream->Push(BookmarkLine(spec, rv_, /*initial_end=*/true));
      }
      break;
    }
    case WatchSpec::Start::kAfter: {
      if (spec.rv < compacted_rv_) {
        return OutOfRangeError(
            "too old resource version: " + std::to_string(spec.rv) + " (" +
            std::to_string(compacted_rv_) + ")");
      }
      for (const Event& e : history_) {
        if (e.rv <= spec.rv || e.resource != spec.resource) continue;
        std::string line = LineFor(w, e);
        if (!line.empty()) w.stream->Push(std::move(line));
      }
      break;
    }
    case WatchSpec::Start::kNow:
      break;
  }
  std::shared_ptr<WatchStream> stream = w.stream;
  watchers_.push_back(std::move(w));
  return stream;
}

void ObjectStore::Unwatch(const WatchStream* stream) {
  base::MutexLock lock(mu_);
  watchers_.remove_if(
      [&](const Watcher& w) { return w.stream.get() == stream; });
}

void ObjectStore::OfferBookmark(const WatchStream* stream) {
  base::MutexLock lock(mu_);
  for (const Watcher& w : watchers_) {
    if (w.stream.get() != stream) continue;
    if (w.stream->empty()) {
      w.stream->Push(BookmarkLine(w.spec, rv_, /*initial_end=*/false));
    }
    return;
  }
}

void ObjectStore::CloseAllWatches() {
  base::MutexLock lock(mu_);
  closed_ = true;
  for (const Watcher& w : watchers_) w.stream->Close();
  watchers_.clear();
}

size_t ObjectStore::WatchCount() const {
  base::MutexLock lock(mu_);
  return watchers_.size();
}

}  // namespace gcushare::apiserver
