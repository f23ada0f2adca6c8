#include "json/pruned_parse.h"

#include <string>
#include <utility>
#include <vector>

namespace gcushare::json {
namespace {

// nlohmann SAX handler building the kept part of the document. Containers
// being built are on `stack_` with the tree node that filters their
// children (null: keep all). A value to drop is skipped: scalars are
// ignored, containers counted in `skipping_` until they close.
class PruningHandler {
 public:
  using json = nlohmann::json;

  PruningHandler(const FieldTree& keep, int max_depth)
      : root_tree_(keep.whole() ? nullptr : &keep), max_depth_(max_depth) {}

  bool null() { return Value(json(nullptr)); }
  bool boolean(bool value) { return Value(json(value)); }
  bool number_integer(json::number_integer_t value) {
    return Value(json(value));
  }
  bool number_unsigned(json::number_unsigned_t value) {
    return Value(json(value));
  }
  bool number_float(json::number_float_t value, const json::string_t&) {
    return Value(json(value));
  }
  bool string(json::string_t& value) {
    if (Dropped()) return true;
    return Value(json(std::move(value)));
  }
  bool binary(json::binary_t& value) { return Value(json::binary(value)); }

  bool start_object(std::size_t) { return Open(json::value_t::object); }
  bool start_array(std::size_t) { return Open(json::value_t::array); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }

  bool key(json::string_t& name) {
    if (skipping_ > 0) return true;
    const FieldTree* tree = stack_.back().tree;
    if (tree == nullptr) {
      next_tree_ = nullptr;
    } else {
      const FieldTree* child = tree->Child(name);
      if (child == nullptr) {
        skip_next_ = true;
        return true;
      }
      next_tree_ = child->whole() ? nullptr : child;
    }
    key_ = std::move(name);
    return true;
  }

  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception& error) {
    error_ = error.what();
    return false;
  }

  bool too_deep() const { return too_deep_; }
  const std::string& error() const { return error_; }
  json& result() { return root_; }

 private:
  struct Frame {
    json* value;
    const FieldTree* tree;  // Filters the children; null: keep all.
  };

  // Whether the value now arriving is dropped (consumes a pending skip).
  bool Dropped() {
    if (skipping_ > 0) return true;
    if (skip_next_) {
      skip_next_ = false;
      return true;
    }
    return false;
  }

  // Where the value now arriving goes.
  json* Slot() {
    if (stack_.empty()) return &root_;
    json* parent = stack_.back().value;
    if (parent->is_array()) {
      parent->push_back(json());
      return &parent->back();
    }
    return &(*parent)[std::move(key_)];
  }

  // The tree filtering the children of the container now opening.
  const FieldTree* TreeForNext() const {
    if (stack_.empty()) return root_tree_;
    // Arrays are transparent: elements are filtered as the array is.
    if (stack_.back().value->is_array()) return stack_.back().tree;
    return next_tree_;
  }

  bool Value(json value) {
    if (Dropped()) return true;
    *Slot() = std::move(value);
    return true;
  }

  bool Open(json::value_t type) {
    if (++depth_ > max_depth_) {
      too_deep_ = true;
      return false;
    }
    if (Dropped()) {
      ++skipping_;
      return true;
    }
    const FieldTree* tree = TreeForNext();
    json* slot = Slot();
    *slot = json(type);
    stack_.push_back({slot, tree});
    return true;
  }

  bool Close() {
    --depth_;
    if (skipping_ > 0) {
      --skipping_;
      return true;
    }
    stack_.pop_back();
    return true;
  }

  const FieldTree* const root_tree_;
  const int max_depth_;
  json root_;
  std::vector<Frame> stack_;
  std::string key_;                       // Key of the value now arriving.
  const FieldTree* next_tree_ = nullptr;  // Its tree (null: keep all).
  bool skip_next_ = false;                // The value now arriving is dropped.
  int skipping_ = 0;                      // Depth inside a dropped container.
  int depth_ = 0;
  bool too_deep_ = false;
  std::string error_;
};

}  // namespace

StatusOr<nlohmann::json> ParsePruned(std::string_view text,
                                     const FieldTree& keep,
                                     std::string_view what, int max_depth) {
  PruningHandler handler(keep, max_depth);
  const bool parsed = nlohmann::json::sax_parse(
      text, &handler, nlohmann::json::input_format_t::json, /*strict=*/true);
  if (handler.too_deep()) {
    return InvalidArgumentError(std::string(what) + ": nested deeper than " +
                                std::to_string(max_depth) + " levels");
  }
  if (!parsed) {
    return InvalidArgumentError(std::string(what) + ": malformed JSON (" +
                                handler.error() + ")");
  }
  return std::move(handler.result());
}

}  // namespace gcushare::json
