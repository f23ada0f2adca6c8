// NameIndex: a flat hash index from a name to a value held elsewhere, for
// lookups that run hundreds of times per request (CardCache::Visit: the
// 500 candidate names of a filter call). One open-addressing array of
// (hash, name, value) slots with linear probing and a power-of-two size:
// a lookup hashes once, masks instead of dividing, and reads one slot
// (one cache line) where a std::unordered_map divides by a prime and
// follows two list nodes (//extender/benchmarks:scale_benchmark;
// docs/extender.md "Why it decodes and judges as it does"). A slot holds a copy
// of a name of up to kInlineName bytes, so comparing the name reads no other
// memory (the borrowed key elsewhere was a cache miss per lookup: a quarter of
// a filter's CPU); longer names are compared through the borrowed view.
//
// Ownership: the index borrows the names and the values; each must stay
// alive and unmoved until its entry is erased (CardCache indexes the keys
// and values of its node map, whose elements never move). Thread-
// compatible: callers serialize writes against reads (CardCache's lock).
#ifndef GCUSHARE_EXTENDER_NAME_INDEX_H_
#define GCUSHARE_EXTENDER_NAME_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string_view>
#include <vector>

namespace gcushare::extender {

template <typename T>
class NameIndex {
 public:
  // The value for `name`, or null.
  T* Find(std::string_view name) const { return Find(name, Hash(name)); }
  // The same with Hash(name) already computed.
  T* Find(std::string_view name, uint64_t hash) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.value == nullptr) return nullptr;
      if (slot.hash == hash && slot.Is(name)) return slot.value;
    }
  }

  // Starts loading the slot of a name whose Hash() is `hash`, for a Find()
  // a little later (a batch of lookups then waits for memory once, not
  // once per name).
  void Prefetch(uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & mask_]);
  }

  // A name's hash: its 8-byte words multiplied and shifted in, then mixed
  // (splitmix64's finalizer), so that the low bits the slot is chosen by
  // depend on every byte. A few nanoseconds for a node name, where
  // std::hash (murmur) took 15-20 and ran twice per lookup (prefetch,
  // find): a tenth of a filter's CPU. Names come from the API server;
  // a caller's unknown names only probe.
  static uint64_t Hash(std::string_view name) {
    const char* p = name.data();
    size_t n = name.size();
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    for (; n >= 8; p += 8, n -= 8) {
      uint64_t word;
      std::memcpy(&word, p, 8);
      h = (h ^ word) * 0xBF58476D1CE4E5B9ull;
      h ^= h >> 31;
    }
    if (n > 0) {
      uint64_t word = 0;
      std::memcpy(&word, p, n);
      h = (h ^ word) * 0x94D049BB133111EBull;
      h ^= h >> 29;
    }
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBull;
    h ^= h >> 31;
    return h;
  }

  // Indexes `value` (not null) under `name`, replacing an earlier entry.
  void Insert(std::string_view name, T* value) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    const uint64_t hash = Hash(name);
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (slot.value == nullptr) {
        slot.Set(hash, name, value);
        ++size_;
        return;
      }
      if (slot.hash == hash && slot.Is(name)) {
        slot.Set(hash, name, value);
        return;
      }
    }
  }

  // Drops `name`'s entry, if any (backward-shift deletion: no tombstones,
  // so lookups stay as short as the load allows).
  void Erase(std::string_view name) {
    if (slots_.empty()) return;
    const uint64_t hash = Hash(name);
    size_t i = hash & mask_;
    for (;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.value == nullptr) return;
      if (slot.hash == hash && slot.Is(name)) break;
    }
    --size_;
    for (size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
      if (slots_[j].value == nullptr) break;
      // An entry may move into the hole unless its home lies cyclically
      // in (i, j].
      const size_t home = slots_[j].hash & mask_;
      const bool stays =
          i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (stays) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i] = Slot{};
  }

  size_t size() const { return size_; }

  // Names up to this long are compared inside the slot.
  static constexpr size_t kInlineName = 36;

 private:
  // One cache line: the hash, the value, the borrowed name and, if it is
  // short enough, a copy of its bytes.
  struct alignas(64) Slot {
    uint64_t hash = 0;
    T* value = nullptr;          // Null: empty.
    const char* data = nullptr;  // The borrowed name.
    uint32_t size = 0;
    char bytes[kInlineName] = {};  // Its first `size` bytes, if they fit.

    std::string_view name() const { return {data, size}; }

    bool Is(std::string_view other) const {
      if (other.size() != size) return false;
      if (size == 0) return true;
      return std::memcmp(size <= kInlineName ? bytes : data, other.data(),
                         size) == 0;
    }

    void Set(uint64_t h, std::string_view n, T* v) {
      hash = h;
      value = v;
      data = n.data();
      size = static_cast<uint32_t>(n.size());
      if (!n.empty() && n.size() <= kInlineName)
        std::memcpy(bytes, n.data(), n.size());
    }
  };
  static_assert(sizeof(Slot) == 64);

  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    size_ = 0;
    for (const Slot& slot : old) {
      if (slot.value != nullptr) Insert(slot.name(), slot.value);
    }
  }

  std::vector<Slot> slots_;  // Size a power of two, at most half full.
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_NAME_INDEX_H_
