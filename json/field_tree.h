// Which fields of a JSON document to keep (json/pruned_parse.h): a tree of
// object keys. A node without children keeps the whole value under it; a
// node with children keeps, of an object, only the named keys (each under
// its child node), of an array, every element under the same node, and a
// scalar as it is (so a reader sees the same shape errors it would see in
// the whole document).
//
// Example: the name and the resource requests of a pod's containers:
//   FieldTree pod;
//   pod.Add({"metadata", "name"}).Add({"spec", "containers", "resources"});
//
// Value type; const methods are thread-safe, Add() is not.
#ifndef GCUSHARE_JSON_FIELD_TREE_H_
#define GCUSHARE_JSON_FIELD_TREE_H_

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gcushare::json {

// `a` equals `b` ignoring ASCII case (Go's encoding/json key matching).
inline bool EqualFoldAscii(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

class FieldTree {
 public:
  // Keeps `path` (object keys from the root) and all below it. Adding a
  // path under one that is already kept whole changes nothing; adding a
  // prefix of kept paths keeps the prefix whole.
  FieldTree& Add(std::initializer_list<std::string_view> path) {
    FieldTree* node = this;
    for (std::string_view key : path) {
      if (node != this && node->children_.empty() && node->whole_) {
        return *this;  // Already kept whole.
      }
      node = &node->ChildFor(key);
    }
    node->children_.clear();
    node->whole_ = true;
    return *this;
  }

  // Keeps, under `path`, what `subtree` keeps (the whole value when
  // `subtree` is whole), replacing what was kept there.
  FieldTree& AddTree(std::initializer_list<std::string_view> path,
                     const FieldTree& subtree) {
    FieldTree* node = this;
    for (std::string_view key : path) {
      node = &node->ChildFor(key);
    }
    *node = subtree;
    node->whole_ = true;
    return *this;
  }

  // Keys of this object match the names added below it exactly or, failing
  // that, ignoring ASCII case (as Go's encoding/json matches a struct's
  // fields); a key kept this way keeps its own spelling, so a reader can
  // still prefer the exact one. Only this level; children match exactly
  // unless they fold too.
  FieldTree& FoldCase() {
    fold_case_ = true;
    return *this;
  }

  // True when the whole value is kept (no children named).
  bool whole() const { return children_.empty(); }

  // The node for `key` under this one, or null when `key` is dropped.
  // Only meaningful when !whole().
  // Runs for every key of every object a pruned parse walks: a scan of
  // the few children comparing lengths first (most keys are dropped and
  // differ in length from every kept one), no tree descent.
  const FieldTree* Child(std::string_view key) const {
    for (const auto& [name, child] : children_) {
      if (name.size() == key.size() &&
          std::memcmp(name.data(), key.data(), key.size()) == 0) {
        return &child;
      }
    }
    if (!fold_case_) return nullptr;
    for (const auto& [name, child] : children_) {
      if (EqualFoldAscii(name, key)) return &child;
    }
    return nullptr;
  }

 private:
  // The child named `key`, added (empty) if absent.
  FieldTree& ChildFor(std::string_view key) {
    auto it = std::lower_bound(
        children_.begin(), children_.end(), key,
        [](const auto& child, std::string_view k) { return child.first < k; });
    if (it == children_.end() || it->first != key) {
      it = children_.emplace(it, std::string(key), FieldTree());
    }
    return it->second;
  }

  // Sorted by name (a folded match is the first in name order), unique.
  std::vector<std::pair<std::string, FieldTree>> children_;
  bool whole_ = false;      // Added as a whole path (not only as a prefix).
  bool fold_case_ = false;  // FoldCase() was called on this node.
};

}  // namespace gcushare::json

#endif  // GCUSHARE_JSON_FIELD_TREE_H_
