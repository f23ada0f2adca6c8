#include "kube/informer.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "base/guarded_thread.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "kube/json_fields.h"

namespace gcushare::kube {
namespace {

// Whether a relist found `fresh` different from what we stored.
bool Changed(const nlohmann::json& stored, const nlohmann::json& fresh) {
  const std::string stored_rv = ResourceVersionOf(stored);
  const std::string fresh_rv = ResourceVersionOf(fresh);
  if (!stored_rv.empty() && !fresh_rv.empty()) return stored_rv != fresh_rv;
  return stored != fresh;
}

// metadata.<field> of `object` as a view into it; "" when absent or not a
// string (as StringAt()).
std::string_view StringViewAt(const nlohmann::json& object,
                              std::string_view field) {
  const nlohmann::json* value = FindPath(object, {"metadata", field});
  if (value == nullptr || !value->is_string()) return {};
  return value->get_ref<const std::string&>();
}

// A list refused for its resourceVersion: 410 Expired/Gone, or 504
// "Too large resource version" (the watch cache is behind it).
bool RefusedResourceVersion(const Status& status) {
  return status.http_code() == 410 ||
         (status.http_code() == 504 &&
          status.message().find("resource version") != std::string::npos);
}

}  // namespace

Informer::Informer(KubeClient* client, Resource resource, std::string ns,
                   InformerHandler* handler, InformerOptions options)
    : client_(client),
      resource_(std::move(resource)),
      ns_(std::move(ns)),
      handler_(handler),
      options_(std::move(options)),
      clock_(options_.clock) {
  if (clock_ == nullptr) {
    owned_clock_ = std::make_unique<base::RealClock>();
    clock_ = owned_clock_.get();
  }
}

Informer::~Informer() { Stop(); }

std::string Informer::KeyOf(const nlohmann::json& object) {
  // Built in place from views (runs for every listed object).
  const std::string_view ns = StringViewAt(object, "namespace");
  const std::string_view name = StringViewAt(object, "name");
  std::string key;
  key.reserve(ns.size() + 1 + name.size());
  if (!ns.empty()) key.append(ns).push_back('/');
  key.append(name);
  return key;
}

void Informer::Start() {
  base::MutexLock lock(lifecycle_mu_);
  if (started_ || cancel_.IsCancelled()) return;
  started_ = true;
  thread_ = base::StartGuardedThread("informer " + resource_.plural,
                                     [this] { Run(); });
}

void Informer::Stop() {
  base::MutexLock lock(lifecycle_mu_);
  cancel_.Cancel();
  {
    // Wake WaitForSync() callers.
    base::MutexLock store_lock(mu_);
    synced_cv_.NotifyAll();
  }
  if (thread_.joinable()) thread_.join();
}

bool Informer::HasSynced() const {
  base::MutexLock lock(mu_);
  return synced_;
}

bool Informer::WaitForSync(std::chrono::milliseconds timeout) {
  base::MutexLock lock(mu_);
  return synced_cv_.WaitFor(lock, timeout, [this]() REQUIRES(mu_) {
    return synced_ || cancel_.IsCancelled();
  }) && synced_;
}

std::vector<Informer::ObjectPtr> Informer::Snapshot() const {
  base::MutexLock lock(mu_);
  std::vector<ObjectPtr> objects;
  objects.reserve(store_.size());
  for (const auto& [key, entry] : store_) objects.push_back(entry.object);
  return objects;
}

Informer::ObjectPtr Informer::Get(std::string_view key) const {
  base::MutexLock lock(mu_);
  auto it = store_.find(key);
  return it == store_.end() ? nullptr : it->second.object;
}

size_t Informer::size() const {
  base::MutexLock lock(mu_);
  return store_.size();
}

std::string Informer::resource_version() const {
  base::MutexLock lock(mu_);
  return resource_version_;
}

void Informer::SetResourceVersion(std::string resource_version) {
  if (resource_version.empty()) return;
  base::MutexLock lock(mu_);
  resource_version_ = std::move(resource_version);
}

void Informer::Upsert(nlohmann::json object, bool modified_event) {
  if (!options_.transform) {
    auto stored = std::make_shared<const nlohmann::json>(std::move(object));
    Store(KeyOf(*stored), *stored, stored, modified_event);
    return;
  }
  std::optional<nlohmann::json> kept = options_.transform(object);
  if (!kept.has_value()) {
    // Not kept (any more): deleted if it was stored.
    if (!listing_into_empty_) Forget(KeyOf(object), nullptr);
    handler_->OnUnkept(object);
    return;
  }
  Store(KeyOf(object), object,
        std::make_shared<const nlohmann::json>(std::move(*kept)),
        modified_event);
}

Informer::ObjectPtr Informer::Put(const std::string& key, ObjectPtr kept) {
  base::MutexLock lock(mu_);
  // Hinted at the end: a list arrives in key order (etcd's), so each new
  // key goes there in constant time instead of a descent of string
  // comparisons; any other key is placed as by store_[key].
  Entry& slot = store_.try_emplace(store_.end(), key)->second;
  ObjectPtr old = std::move(slot.object);
  slot.object = std::move(kept);
  slot.listed = lists_.load();
  return old;
}

void Informer::Store(const std::string& key, const nlohmann::json& object,
                     ObjectPtr kept, bool modified_event) {
  const ObjectPtr old = Put(key, std::move(kept));
  if (old != nullptr &&
      StringViewAt(*old, "uid") != StringViewAt(object, "uid")) {
    // Deleted and re-created under the same name while we did not watch
    // (a relist after a gap, or a resumed watch after a restart of the
    // server): the old incarnation is gone, the new one is new.
    handler_->OnDelete(*old);
    handler_->OnAdd(object);
  } else if (old == nullptr) {
    handler_->OnAdd(object);
  } else if (modified_event || Changed(*old, object)) {
    handler_->OnUpdate(*old, object);
  }
}

void Informer::Forget(const std::string& key,
                      const nlohmann::json* last_state) {
  ObjectPtr old;
  {
    base::MutexLock lock(mu_);
    auto it = store_.find(key);
    if (it != store_.end()) {
      old = std::move(it->second.object);
      store_.erase(it);
    }
  }
  if (old == nullptr) {
    spdlog::debug("informer {}: {} gone but was not stored",
                  resource_.DisplayName(), key);
    if (last_state != nullptr) handler_->OnUnkeptDelete(*last_state);
    return;
  }
  handler_->OnDelete(last_state != nullptr ? *last_state : *old);
}

ListOptions Informer::ListOptionsNow() const {
  ListOptions list_options;
  list_options.label_selector = options_.label_selector;
  list_options.field_selector = options_.field_selector;
  if (options_.list_form == ListForm::kConsistentPaged ||
      resource_version_unavailable_) {
    // A quorum read, page by page.
    list_options.limit = options_.page_size;
  } else {
    // From the watch cache, whole (it ignores a limit with "0", and a
    // limit with another resourceVersion would send the list to etcd).
    const std::string last = resource_version();
    list_options.resource_version = last.empty() ? "0" : last;
    list_options.limit = 0;
  }
  return list_options;
}

Status Informer::Relist() {
  const uint64_t list = ++lists_;
  // Each item is reconciled as its page arrives: the store never holds the
  // collection twice, and with a transform only the kept forms stay.
  size_t items = 0;
  {
    base::MutexLock lock(mu_);
    listing_into_empty_ = store_.empty();
  }
  // The options of this list (and of its consistent retry).
  const auto prepare = [&](ListOptions& list_options) {
    list_options.cancel = &cancel_;
    if (!options_.fields.whole()) list_options.fields = &options_.fields;
    list_options.expected_items = [this](size_t expected) {
      handler_->OnRelistSize(expected);
    };
    if ((options_.unkept_text || options_.kept_text) && options_.transform &&
        listing_into_empty_) {
      list_options.take_item_text = [this, &items](std::string_view text) {
        if (options_.unkept_text && options_.unkept_text(text)) {
          ++items;
          return true;
        }
        if (!options_.kept_text) return false;
        std::optional<nlohmann::json> kept = options_.kept_text(text);
        if (!kept.has_value()) return false;
        ++items;
        // The hook did the handler's part: stored, not reported.
        const std::string key = KeyOf(*kept);
        (void)Put(key,
                  std::make_shared<const nlohmann::json>(std::move(*kept)));
        return true;
      };
    }
  };
  ListOptions list_options = ListOptionsNow();
  prepare(list_options);
  handler_->OnRelistBegin();
  auto each = [&](nlohmann::json item) {
    ++items;
    Upsert(std::move(item), false);
  };
  StatusOr<std::string> listed =
      client_->ListEach(resource_, ns_, list_options, each);
  if (!listed.ok() && RefusedResourceVersion(listed.status()) &&
      !list_options.resource_version.empty()) {
    // As client-go: the resourceVersion is unavailable; list consistently
    // at once (and until a list succeeds).
    spdlog::info(
        "informer {}: list at resourceVersion {} refused ({}); "
        "listing consistently",
        resource_.DisplayName(), list_options.resource_version,
        listed.status().message());
    resource_version_unavailable_ = true;
    list_options = ListOptionsNow();
    prepare(list_options);
    listed = client_->ListEach(resource_, ns_, list_options, each);
  }
  listing_into_empty_ = false;
  if (!listed.ok()) return listed.status();
  resource_version_unavailable_ = false;
  std::string resource_version = std::move(*listed);
  // What the list did not show is gone.
  std::vector<std::string> gone;
  {
    base::MutexLock lock(mu_);
    for (const auto& [key, entry] : store_) {
      if (entry.listed != list) gone.push_back(key);
    }
    resource_version_ = resource_version;
  }
  for (const std::string& key : gone) Forget(key, nullptr);
  handler_->OnRelistEnd();
  if (list > 1) {
    spdlog::info(
        "informer {}{}: relisted at resourceVersion {}: {} objects, {} kept, "
        "{} gone",
        resource_.DisplayName(), ns_.empty() ? "" : " in " + ns_,
        resource_version, items, size(), gone.size());
  }
  {
    base::MutexLock lock(mu_);
    synced_ = true;
  }
  synced_cv_.NotifyAll();
  return OkStatus();
}

void Informer::Apply(WatchEvent event) {
  ++events_;
  SetResourceVersion(ResourceVersionOf(event.object));
  if (event.type == WatchEventType::kBookmark) return;
  if (event.type == WatchEventType::kDeleted) {
    Forget(KeyOf(event.object), &event.object);
    return;
  }
  Upsert(std::move(event.object), event.type == WatchEventType::kModified);
}

void Informer::Run() {
  const std::string what =
      "informer " + resource_.DisplayName() + (ns_.empty() ? "" : " in " + ns_);
  base::Backoff backoff(options_.backoff);
  bool need_list = true;
  while (!cancel_.IsCancelled()) {
    if (need_list) {
      Status listed = Relist();
      if (cancel_.IsCancelled()) break;
      if (!listed.ok()) {
        const auto delay = backoff.Next();
        spdlog::warn(
            "{}: list failed: {}; retrying in {} ms", what, listed.ToString(),
            std::chrono::duration_cast<std::chrono::milliseconds>(delay)
                .count());
        clock_->SleepFor(delay, &cancel_);
        continue;
      }
      need_list = false;
      backoff.Reset();
    }

    WatchOptions watch_options;
    watch_options.label_selector = options_.label_selector;
    watch_options.field_selector = options_.field_selector;
    watch_options.resource_version = resource_version();
    watch_options.allow_watch_bookmarks = true;
    watch_options.timeout_seconds = options_.watch_timeout_seconds;
    watch_options.cancel = &cancel_;
    if (!options_.fields.whole()) watch_options.fields = &options_.fields;
    const uint64_t events_before = events_.load();
    ++watches_;
    Status watched =
        client_->Watch(resource_, ns_, watch_options,
                       [this](WatchEvent event) { Apply(std::move(event)); });
    if (cancel_.IsCancelled()) break;
    const bool progressed = events_.load() > events_before;
    if (progressed) backoff.Reset();

    if (watched.http_code() == 410) {
      spdlog::info("{}: resourceVersion {} is gone ({}); relisting", what,
                   watch_options.resource_version, watched.message());
      need_list = true;
      continue;
    }
    if (watched.ok()) {
      // The server ended the watch. Re-watch at once, unless it keeps
      // ending without delivering anything.
      if (!progressed) clock_->SleepFor(backoff.Next(), &cancel_);
      continue;
    }
    const auto delay = backoff.Next();
    spdlog::warn(
        "{}: watch from resourceVersion {} failed: {}; re-watching "
        "in {} ms",
        what, watch_options.resource_version, watched.ToString(),
        std::chrono::duration_cast<std::chrono::milliseconds>(delay).count());
    clock_->SleepFor(delay, &cancel_);
  }
}

}  // namespace gcushare::kube
