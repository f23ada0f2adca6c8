#include "efml/fake_card_source.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cstdint>
#include <exception>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "efml/device_numbers.h"
#include "efml/read_file.h"
#include "json/bounded_parse.h"

namespace gcushare::efml {
namespace {

constexpr char kExpectedKeys[] =
    "index, uuid, memoryMiB, device, numa, healthy";

// 1-based line of a node, or 1 when yaml-cpp has no position for it (e.g.
// an empty document).
int LineOf(const YAML::Mark& mark) {
  return mark.is_null() || mark.line < 0 ? 1 : mark.line + 1;
}

// Formats problems as "fake cards file <name> line <n>: <problem>".
class Problems {
 public:
  explicit Problems(std::string_view file_name) : file_name_(file_name) {}

  Status At(const YAML::Mark& mark, const std::string& problem) const {
    return AtLine(LineOf(mark), problem);
  }
  Status AtLine(int line, const std::string& problem) const {
    return InvalidArgumentError("fake cards file " + file_name_ + " line " +
                                std::to_string(line) + ": " + problem);
  }

 private:
  std::string file_name_;
};

std::optional<int64_t> ParseInt64(const std::string& text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

// The scalar text of a value node, or an error naming the key.
StatusOr<std::string> ScalarValue(const Problems& problems,
                                  const YAML::Node& key,
                                  const YAML::Node& value) {
  const std::string& name = key.Scalar();
  if (!value.IsDefined() || value.IsNull()) {
    return problems.At(key.Mark(), name + " has no value");
  }
  if (!value.IsScalar()) {
    return problems.At(key.Mark(), name + " must be a single value");
  }
  return value.Scalar();
}

// The value of an integer field, which must lie in [min, max]; `what`
// describes the expectation in messages.
StatusOr<int64_t> IntegerValue(const Problems& problems, const YAML::Node& key,
                               const YAML::Node& value, int64_t min,
                               int64_t max, const std::string& what) {
  GCUSHARE_ASSIGN_OR_RETURN(std::string text,
                            ScalarValue(problems, key, value));
  std::optional<int64_t> number = ParseInt64(text);
  if (!number) {
    return problems.At(key.Mark(), key.Scalar() + " must be " + what +
                                       ", got \"" + text + "\"");
  }
  if (*number < min || *number > max) {
    return problems.At(key.Mark(),
                       key.Scalar() + " must be " + what + ", got " + text);
  }
  return *number;
}

// Parses one entry of `cards`. `seen_indexes` and `seen_uuids` map values
// already used to the line of their first use, and are updated.
StatusOr<Card> ParseCard(const Problems& problems, const YAML::Node& node,
                         std::map<uint32_t, int>& seen_indexes,
                         std::map<std::string, int>& seen_uuids) {
  if (!node.IsMap()) {
    return problems.At(node.Mark(), "each card must be a map with keys " +
                                        std::string(kExpectedKeys));
  }
  Card card;
  std::set<std::string> keys;
  for (auto it = node.begin(); it != node.end(); ++it) {
    // Copies: yaml-cpp's operator-> yields a temporary, so references to
    // it->first would dangle. Nodes are cheap handles.
    const YAML::Node key = it->first;
    const YAML::Node value = it->second;
    if (!key.IsScalar()) {
      return problems.At(key.Mark(), "card keys must be plain names");
    }
    const std::string& name = key.Scalar();
    if (!keys.insert(name).second) {
      return problems.At(key.Mark(), "duplicate key " + name);
    }
    if (name == "index") {
      GCUSHARE_ASSIGN_OR_RETURN(
          int64_t index, IntegerValue(problems, key, value, 0,
                                      std::numeric_limits<uint32_t>::max(),
                                      "a non-negative integer"));
      card.index = static_cast<uint32_t>(index);
      int line = LineOf(key.Mark());
      auto [prev, inserted] = seen_indexes.emplace(card.index, line);
      if (!inserted) {
        return problems.AtLine(line, "index " + std::to_string(card.index) +
                                         " is used twice (first at line " +
                                         std::to_string(prev->second) + ")");
      }
    } else if (name == "uuid") {
      GCUSHARE_ASSIGN_OR_RETURN(card.uuid, ScalarValue(problems, key, value));
      if (card.uuid.empty()) {
        return problems.At(key.Mark(), "uuid must not be empty");
      }
      int line = LineOf(key.Mark());
      auto [prev, inserted] = seen_uuids.emplace(card.uuid, line);
      if (!inserted) {
        return problems.AtLine(line, "uuid " + card.uuid +
                                         " is used twice (first at line " +
                                         std::to_string(prev->second) + ")");
      }
    } else if (name == "memoryMiB") {
      GCUSHARE_ASSIGN_OR_RETURN(
          int64_t memory, IntegerValue(problems, key, value, 1,
                                       std::numeric_limits<int64_t>::max(),
                                       "a positive integer (MiB)"));
      card.memory_mib = static_cast<uint64_t>(memory);
    } else if (name == "device") {
      GCUSHARE_ASSIGN_OR_RETURN(card.device.path,
                                ScalarValue(problems, key, value));
      if (card.device.path.empty() || card.device.path[0] != '/') {
        return problems.At(key.Mark(), "device path \"" + card.device.path +
                                           "\" must be absolute");
      }
    } else if (name == "numa") {
      GCUSHARE_ASSIGN_OR_RETURN(
          int64_t numa,
          IntegerValue(problems, key, value, 0, std::numeric_limits<int>::max(),
                       "a non-negative integer"));
      card.numa_node = static_cast<int>(numa);
    } else if (name == "healthy") {
      GCUSHARE_ASSIGN_OR_RETURN(std::string text,
                                ScalarValue(problems, key, value));
      if (!YAML::convert<bool>::decode(value, card.healthy)) {
        return problems.At(
            key.Mark(), "healthy must be true or false, got \"" + text + "\"");
      }
    } else {
      return problems.At(key.Mark(), "unknown key " + name + " (expected " +
                                         kExpectedKeys + ")");
    }
  }
  for (const char* required : {"index", "uuid", "memoryMiB"}) {
    if (keys.count(required) == 0) {
      return problems.At(node.Mark(),
                         std::string("card is missing ") + required);
    }
  }
  if (keys.count("device") == 0)
    card.device.path = DefaultDevicePath(card.index);
  return card;
}

StatusOr<Inventory> ParseDocument(const Problems& problems,
                                  const YAML::Node& root) {
  if (!root.IsDefined() || root.IsNull()) {
    return problems.AtLine(1, "file is empty; expected a map with key cards");
  }
  if (!root.IsMap()) {
    return problems.At(root.Mark(), "expected a map with key cards");
  }
  // `cards` first, so that a misspelt `card:` reads "missing key cards".
  std::optional<YAML::Node> cards;
  for (auto it = root.begin(); it != root.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar() || key.Scalar() != "cards") continue;
    if (cards) return problems.At(key.Mark(), "duplicate key cards");
    cards = it->second;
    if (!cards->IsSequence()) {
      return problems.At(key.Mark(), "cards must be a list of cards");
    }
  }
  if (!cards) return problems.At(root.Mark(), "missing key cards");
  for (auto it = root.begin(); it != root.end(); ++it) {
    const YAML::Node key = it->first;
    if (key.IsScalar() && key.Scalar() == "cards") continue;
    std::string name = key.IsScalar() ? key.Scalar() : "(not a name)";
    return problems.At(key.Mark(), "unknown key " + name + " (expected cards)");
  }

  Inventory inventory;
  std::map<uint32_t, int> seen_indexes;
  std::map<std::string, int> seen_uuids;
  for (const YAML::Node& node : *cards) {
    GCUSHARE_ASSIGN_OR_RETURN(
        Card card, ParseCard(problems, node, seen_indexes, seen_uuids));
    inventory.cards.push_back(std::move(card));
  }
  return inventory;
}

}  // namespace

StatusOr<Inventory> ParseFakeCards(std::string_view yaml,
                                   std::string_view file_name) {
  Problems problems(file_name);
  StatusOr<Inventory> inventory = InternalError("unreachable");
  // yaml-cpp reports both syntax and conversion errors by throwing; nothing
  // may escape this module.
  if (Status deep = json::CheckYamlDepth(yaml, file_name); !deep.ok()) {
    return deep;
  }
  try {
    YAML::Node root = YAML::Load(std::string(yaml));
    inventory = ParseDocument(problems, root);
  } catch (const YAML::Exception& e) {
    return problems.At(e.mark, "YAML syntax error: " + e.msg);
  } catch (const std::exception& e) {
    return problems.AtLine(1, std::string("cannot parse: ") + e.what());
  } catch (...) {
    return problems.AtLine(1, "cannot parse: unknown error");
  }
  if (!inventory.ok()) return inventory.status();
  Status normalized = NormalizeInventory(*inventory);
  if (!normalized.ok()) {
    return normalized.WithContext("fake cards file " + std::string(file_name));
  }
  return inventory;
}

FakeCardSource::FakeCardSource(std::string file_name)
    : file_name_(std::move(file_name)) {}

StatusOr<Inventory> FakeCardSource::Discover() {
  StatusOr<std::string> text = ReadFileToString(file_name_);
  if (!text.ok()) return text.status().WithContext("fake cards file");
  GCUSHARE_ASSIGN_OR_RETURN(Inventory inventory,
                            ParseFakeCards(*text, file_name_));
  for (Card& card : inventory.cards) {
    FillDeviceNumbersFromStat(card.device.path, card.device);
  }
  return inventory;
}

}  // namespace gcushare::efml
