#include "tests/peers/dra_scheduler/device_selector.h"

#include <cctype>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "tests/peers/dra_scheduler/quantity.h"

namespace gcushare::dra_scheduler {
namespace {

struct Value {
  enum class Type { kString, kInt, kBool, kVersion };
  Type type = Type::kInt;
  std::string text;  // kString, kVersion.
  int64_t number = 0;
  bool flag = false;
};

std::string_view TypeName(Value::Type type) {
  switch (type) {
    case Value::Type::kString:
      return "string";
    case Value::Type::kInt:
      return "int";
    case Value::Type::kBool:
      return "bool";
    case Value::Type::kVersion:
      return "semver";
  }
  return "?";
}

enum class TokenKind { kIdent, kString, kInt, kSymbol, kEnd };

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  int64_t number = 0;
  size_t column = 0;  // 1-based.
};

}  // namespace

struct DeviceSelector::Node {
  enum class Kind { kAnd, kCompare, kConst };
  enum class Operand { kDriver, kAllowMultiple, kAttribute, kCapacity };
  Kind kind = Kind::kConst;
  std::vector<std::shared_ptr<const Node>> children;
  bool constant = true;
  Operand operand = Operand::kDriver;
  std::string domain;
  std::string name;
  StatusOr<Quantity> quantity = Quantity();  // compareTo argument.
  std::string op;
  Value literal;
};

namespace {

using Node = DeviceSelector::Node;
using NodePtr = std::shared_ptr<const Node>;

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  StatusOr<NodePtr> Parse() {
    GCUSHARE_RETURN_IF_ERROR(Tokenize());
    GCUSHARE_ASSIGN_OR_RETURN(NodePtr root, ParseAnd());
    if (Peek().kind != TokenKind::kEnd) return Unsupported("unexpected token");
    return root;
  }

 private:
  Status Unsupported(std::string_view what) const {
    const size_t column = Peek().column;
    return InvalidArgumentError(
        "ERROR: <input>:1:" + std::to_string(column) + ": " +
        std::string(what) + " in \"" + std::string(text_) +
        "\": the stand-in scheduler evaluates only device.driver, "
        "device.allowMultipleAllocations, device.attributes[\"<domain>\"]."
        "<name> and device.capacity[\"<domain>\"].<name>.compareTo(quantity("
        "\"...\")) compared with literals and joined by &&");
  }

  Status Tokenize() {
    size_t i = 0;
    while (i < text_.size()) {
      const char c = text_[i];
      Token token;
      token.column = i + 1;
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
        continue;
      }
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        size_t j = i;
        while (j < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[j])) ||
                text_[j] == '_')) {
          ++j;
        }
        token.kind = TokenKind::kIdent;
        token.text = std::string(text_.substr(i, j - i));
        i = j;
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '-' && i + 1 < text_.size() &&
                  std::isdigit(static_cast<unsigned char>(text_[i + 1])))) {
        size_t j = i + 1;
        while (j < text_.size() &&
               std::isdigit(static_cast<unsigned char>(text_[j]))) {
          ++j;
        }
        token.kind = TokenKind::kInt;
        token.text = std::string(text_.substr(i, j - i));
        if (j - i > 18) return BadToken(token, "integer literal too long");
        token.number = std::stoll(token.text);
        i = j;
      } else if (c == '"') {
        size_t j = i + 1;
        std::string value;
        while (j < text_.size() && text_[j] != '"') {
          if (text_[j] == '\\' && j + 1 < text_.size()) ++j;
          value += text_[j];
          ++j;
        }
        if (j >= text_.size()) return BadToken(token, "unterminated string");
        token.kind = TokenKind::kString;
        token.text = value;
        i = j + 1;
      } else {
        static constexpr std::string_view kTwo[] = {
            "==", "!=", "<=", ">=", "&&", "||"};
        token.kind = TokenKind::kSymbol;
        token.text = std::string(1, c);
        for (std::string_view two : kTwo) {
          if (text_.substr(i, 2) == two) token.text = std::string(two);
        }
        i += token.text.size();
      }
      tokens_.push_back(std::move(token));
    }
    Token end;
    end.column = text_.size() + 1;
    tokens_.push_back(end);
    return OkStatus();
  }

  Status BadToken(const Token& token, std::string_view what) const {
    return InvalidArgumentError(
        "ERROR: <input>:1:" + std::to_string(token.column) + ": " +
        std::string(what) + " in \"" + std::string(text_) + "\"");
  }

  const Token& Peek() const { return tokens_[pos_]; }
  bool IsSymbol(std::string_view symbol) const {
    return Peek().kind == TokenKind::kSymbol && Peek().text == symbol;
  }
  bool IsIdent(std::string_view ident) const {
    return Peek().kind == TokenKind::kIdent && Peek().text == ident;
  }
  Status ExpectSymbol(std::string_view symbol) {
    if (!IsSymbol(symbol)) {
      return Unsupported("expected '" + std::string(symbol) + "'");
    }
    ++pos_;
    return OkStatus();
  }
  Status ExpectIdent(std::string_view ident) {
    if (!IsIdent(ident)) {
      return Unsupported("expected '" + std::string(ident) + "'");
    }
    ++pos_;
    return OkStatus();
  }
  StatusOr<std::string> ExpectString() {
    if (Peek().kind != TokenKind::kString) {
      return Unsupported("expected a string literal");
    }
    return tokens_[pos_++].text;
  }
  StatusOr<std::string> ExpectName() {
    if (Peek().kind != TokenKind::kIdent) return Unsupported("expected a name");
    return tokens_[pos_++].text;
  }

  StatusOr<NodePtr> ParseAnd() {
    std::vector<NodePtr> terms;
    GCUSHARE_ASSIGN_OR_RETURN(NodePtr first, ParsePrimary());
    terms.push_back(first);
    while (IsSymbol("&&")) {
      ++pos_;
      GCUSHARE_ASSIGN_OR_RETURN(NodePtr next, ParsePrimary());
      terms.push_back(next);
    }
    if (terms.size() == 1) return terms[0];
    auto node = std::make_shared<Node>();
    node->kind = Node::Kind::kAnd;
    node->children = std::move(terms);
    return NodePtr(node);
  }

  StatusOr<NodePtr> ParsePrimary() {
    if (IsSymbol("(")) {
      ++pos_;
      GCUSHARE_ASSIGN_OR_RETURN(NodePtr inner, ParseAnd());
      GCUSHARE_RETURN_IF_ERROR(ExpectSymbol(")"));
      return inner;
    }
    if (IsIdent("true") || IsIdent("false")) {
      auto node = std::make_shared<Node>();
      node->kind = Node::Kind::kConst;
      node->constant = Peek().text == "true";
      ++pos_;
      return NodePtr(node);
    }
    return ParseComparison();
  }

  StatusOr<NodePtr> ParseComparison() {
    auto node = std::make_shared<Node>();
    node->kind = Node::Kind::kCompare;
    GCUSHARE_RETURN_IF_ERROR(ExpectIdent("device"));
    GCUSHARE_RETURN_IF_ERROR(ExpectSymbol("."));
    if (IsIdent("driver")) {
      ++pos_;
      node->operand = Node::Operand::kDriver;
    } else if (IsIdent("allowMultipleAllocations")) {
      ++pos_;
      node->operand = Node::Operand::kAllowMultiple;
    } else if (IsIdent("attributes") || IsIdent("capacity")) {
      const bool capacity = Peek().text == "capacity";
      ++pos_;
      GCUSHARE_RETURN_IF_ERROR(ExpectSymbol("["));
      GCUSHARE_ASSIGN_OR_RETURN(node->domain, ExpectString());
      GCUSHARE_RETURN_IF_ERROR(ExpectSymbol("]"));
      GCUSHARE_RETURN_IF_ERROR(ExpectSymbol("."));
      GCUSHARE_ASSIGN_OR_RETURN(node->name, ExpectName());
      node->operand = Node::Operand::kAttribute;
      if (capacity) {
        node->operand = Node::Operand::kCapacity;
        GCUSHARE_RETURN_IF_ERROR(ExpectSymbol("."));
        GCUSHARE_RETURN_IF_ERROR(ExpectIdent("compareTo"));
        GCUSHARE_RETURN_IF_ERROR(ExpectSymbol("("));
        GCUSHARE_RETURN_IF_ERROR(ExpectIdent("quantity"));
        GCUSHARE_RETURN_IF_ERROR(ExpectSymbol("("));
        GCUSHARE_ASSIGN_OR_RETURN(std::string text, ExpectString());
        node->quantity = Quantity::Parse(text);
        GCUSHARE_RETURN_IF_ERROR(ExpectSymbol(")"));
        GCUSHARE_RETURN_IF_ERROR(ExpectSymbol(")"));
      }
    } else {
      return Unsupported("unsupported field");
    }
    static constexpr std::string_view kOps[] = {"==", "!=", "<",
                                                "<=", ">",  ">="};
    bool is_op = false;
    for (std::string_view op : kOps) {
      if (IsSymbol(op)) is_op = true;
    }
    if (!is_op) return Unsupported("expected a comparison");
    node->op = tokens_[pos_++].text;
    const Token& literal = Peek();
    if (literal.kind == TokenKind::kString) {
      node->literal.type = Value::Type::kString;
      node->literal.text = literal.text;
    } else if (literal.kind == TokenKind::kInt) {
      node->literal.type = Value::Type::kInt;
      node->literal.number = literal.number;
    } else if (IsIdent("true") || IsIdent("false")) {
      node->literal.type = Value::Type::kBool;
      node->literal.flag = literal.text == "true";
    } else {
      return Unsupported("expected a literal");
    }
    ++pos_;
    return NodePtr(node);
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

StatusOr<bool> Compare(const Value& lhs, const std::string& op,
                       const Value& rhs) {
  if (lhs.type != rhs.type) {
    if (op == "==") return false;
    if (op == "!=") return true;
    return InvalidArgumentError(
        "no such overload: " + std::string(TypeName(lhs.type)) + " " + op +
        " " + std::string(TypeName(rhs.type)));
  }
  int cmp = 0;
  switch (lhs.type) {
    case Value::Type::kString:
    case Value::Type::kVersion:
      cmp = lhs.text.compare(rhs.text);
      break;
    case Value::Type::kInt:
      cmp = lhs.number < rhs.number ? -1 : (lhs.number > rhs.number ? 1 : 0);
      break;
    case Value::Type::kBool:
      cmp = static_cast<int>(lhs.flag) - static_cast<int>(rhs.flag);
      break;
  }
  if (op == "==") return cmp == 0;
  if (op == "!=") return cmp != 0;
  if (op == "<") return cmp < 0;
  if (op == "<=") return cmp <= 0;
  if (op == ">") return cmp > 0;
  return cmp >= 0;
}

// The entry of `map` (attributes or capacity) for domain/name.
const nlohmann::json* Lookup(const nlohmann::json* device, const char* map,
                             const std::string& driver,
                             const std::string& domain,
                             const std::string& name) {
  if (device == nullptr || !device->is_object()) return nullptr;
  auto entries = device->find(map);
  if (entries == device->end() || !entries->is_object()) return nullptr;
  auto qualified = entries->find(domain + "/" + name);
  if (qualified != entries->end()) return &*qualified;
  if (domain == driver) {
    auto plain = entries->find(name);
    if (plain != entries->end()) return &*plain;
  }
  return nullptr;
}

StatusOr<Value> Operand(const Node& node, const CelDevice& device) {
  Value value;
  switch (node.operand) {
    case Node::Operand::kDriver:
      value.type = Value::Type::kString;
      value.text = device.driver;
      return value;
    case Node::Operand::kAllowMultiple: {
      value.type = Value::Type::kBool;
      const nlohmann::json* d = device.device;
      value.flag = d != nullptr && d->is_object() &&
                   d->value("allowMultipleAllocations", false);
      return value;
    }
    case Node::Operand::kAttribute: {
      const nlohmann::json* attribute = Lookup(
          device.device, "attributes", device.driver, node.domain, node.name);
      if (attribute == nullptr || !attribute->is_object()) {
        return InvalidArgumentError("no such key: " + node.name);
      }
      if (attribute->contains("int") && (*attribute)["int"].is_number()) {
        value.type = Value::Type::kInt;
        value.number = (*attribute)["int"].get<int64_t>();
      } else if (attribute->contains("bool") &&
                 (*attribute)["bool"].is_boolean()) {
        value.type = Value::Type::kBool;
        value.flag = (*attribute)["bool"].get<bool>();
      } else if (attribute->contains("string") &&
                 (*attribute)["string"].is_string()) {
        value.type = Value::Type::kString;
        value.text = (*attribute)["string"].get<std::string>();
      } else if (attribute->contains("version") &&
                 (*attribute)["version"].is_string()) {
        value.type = Value::Type::kVersion;
        value.text = (*attribute)["version"].get<std::string>();
      } else {
        return InvalidArgumentError("no such key: " + node.name);
      }
      return value;
    }
    case Node::Operand::kCapacity: {
      const nlohmann::json* capacity = Lookup(
          device.device, "capacity", device.driver, node.domain, node.name);
      if (capacity == nullptr || !capacity->is_object() ||
          !capacity->contains("value") || !(*capacity)["value"].is_string()) {
        return InvalidArgumentError("no such key: " + node.name);
      }
      if (!node.quantity.ok()) return node.quantity.status();
      auto have = Quantity::Parse((*capacity)["value"].get<std::string>());
      if (!have.ok()) return have.status();
      value.type = Value::Type::kInt;
      value.number = have->Compare(*node.quantity);
      return value;
    }
  }
  return InvalidArgumentError("unknown operand");
}

StatusOr<bool> Evaluate(const Node& node, const CelDevice& device) {
  switch (node.kind) {
    case Node::Kind::kConst:
      return node.constant;
    case Node::Kind::kAnd: {
      std::optional<Status> first_error;
      for (const NodePtr& child : node.children) {
        StatusOr<bool> result = Evaluate(*child, device);
        if (!result.ok()) {
          if (!first_error.has_value()) first_error = result.status();
        } else if (!*result) {
          return false;
        }
      }
      if (first_error.has_value()) return *first_error;
      return true;
    }
    case Node::Kind::kCompare: {
      GCUSHARE_ASSIGN_OR_RETURN(Value lhs, Operand(node, device));
      return Compare(lhs, node.op, node.literal);
    }
  }
  return false;
}

}  // namespace

StatusOr<DeviceSelector> DeviceSelector::Compile(std::string_view expression) {
  Parser parser(expression);
  GCUSHARE_ASSIGN_OR_RETURN(NodePtr root, parser.Parse());
  return DeviceSelector(std::string(expression), std::move(root));
}

StatusOr<bool> DeviceSelector::Matches(const CelDevice& device) const {
  return Evaluate(*root_, device);
}

}  // namespace gcushare::dra_scheduler
