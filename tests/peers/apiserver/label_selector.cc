#include "tests/peers/apiserver/label_selector.h"

#include <cctype>
#include <cstdint>
#include <optional>
#include <utility>

namespace gcushare::apiserver {
namespace {

enum class Tok {
  kIdentifier,
  kNot,         // !
  kNotEquals,   // !=
  kEquals,      // =
  kDoubleEq,    // ==
  kGreater,     // >
  kLess,        // <
  kOpenParen,   // (
  kCloseParen,  // )
  kComma,       // ,
  kIn,          // in
  kNotIn,       // notin
  kEnd,
};

struct Token {
  Tok type;
  std::string text;
};

bool IsSpecial(char c) {
  return c == '!' || c == '=' || c == '>' || c == '<' || c == '(' || c == ')' ||
         c == ',';
}

std::vector<Token> Lex(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (IsSpecial(c)) {
      std::string_view two = s.substr(i, 2);
      if (two == "!=") {
        out.push_back({Tok::kNotEquals, "!="});
        i += 2;
      } else if (two == "==") {
        out.push_back({Tok::kDoubleEq, "=="});
        i += 2;
      } else {
        Tok t = Tok::kComma;
        switch (c) {
          case '!':
            t = Tok::kNot;
            break;
          case '=':
            t = Tok::kEquals;
            break;
          case '>':
            t = Tok::kGreater;
            break;
          case '<':
            t = Tok::kLess;
            break;
          case '(':
            t = Tok::kOpenParen;
            break;
          case ')':
            t = Tok::kCloseParen;
            break;
          default:
            t = Tok::kComma;
        }
        out.push_back({t, std::string(1, c)});
        ++i;
      }
      continue;
    }
    size_t start = i;
    while (i < s.size() && !IsSpecial(s[i]) &&
           !std::isspace(static_cast<unsigned char>(s[i]))) {
      ++i;
    }
    std::string word(s.substr(start, i - start));
    if (word == "in") {
      out.push_back({Tok::kIn, word});
    } else if (word == "notin") {
      out.push_back({Tok::kNotIn, word});
    } else {
      out.push_back({Tok::kIdentifier, word});
    }
  }
  out.push_back({Tok::kEnd, ""});
  return out;
}

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)); }

// [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])? up to 63 characters.
bool IsLabelName(std::string_view s) {
  if (s.empty() || s.size() > 63) return false;
  if (!IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// A lowercase RFC 1123 subdomain of at most 253 characters.
bool IsDnsSubdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  size_t start = 0;
  while (start <= s.size()) {
    size_t dot = s.find('.', start);
    std::string_view label =
        s.substr(start, dot == std::string_view::npos ? std::string_view::npos
                                                      : dot - start);
    if (label.empty() || label.size() > 63) return false;
    if (!std::islower(static_cast<unsigned char>(label.front())) &&
        !std::isdigit(static_cast<unsigned char>(label.front()))) {
      return false;
    }
    if (!std::islower(static_cast<unsigned char>(label.back())) &&
        !std::isdigit(static_cast<unsigned char>(label.back()))) {
      return false;
    }
    for (char c : label) {
      if (!std::islower(static_cast<unsigned char>(c)) &&
          !std::isdigit(static_cast<unsigned char>(c)) && c != '-') {
        return false;
      }
    }
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return true;
}

Status ValidateKey(const std::string& key) {
  std::string_view name = key;
  size_t slash = key.find('/');
  if (slash != std::string::npos) {
    std::string_view prefix = std::string_view(key).substr(0, slash);
    name = std::string_view(key).substr(slash + 1);
    if (!IsDnsSubdomain(prefix)) {
      return InvalidArgumentError(
          "unable to parse requirement: key: Invalid value: \"" + key +
          "\": prefix part must be a lowercase RFC 1123 subdomain");
    }
  }
  if (!IsLabelName(name)) {
    return InvalidArgumentError(
        "unable to parse requirement: key: Invalid value: \"" + key +
        "\": name part must consist of alphanumeric characters, '-', '_' or "
        "'.', and must start and end with an alphanumeric character");
  }
  return OkStatus();
}

Status ValidateValue(const std::string& value) {
  if (value.empty() || IsLabelName(value)) return OkStatus();
  return InvalidArgumentError(
      "unable to parse requirement: values[0][" + value +
      "]: Invalid value: \"" + value +
      "\": a valid label must be an empty string or consist of alphanumeric "
      "characters, '-', '_' or '.', and must start and end with an "
      "alphanumeric character");
}

std::optional<int64_t> ParseInt(const std::string& s) {
  if (s.empty()) return std::nullopt;
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size()) return std::nullopt;
  int64_t v = 0;
  for (; i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return s[0] == '-' ? -v : v;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> toks) : toks_(std::move(toks)) {}

  StatusOr<std::vector<LabelSelector::Requirement>> Run() {
    std::vector<LabelSelector::Requirement> out;
    if (Peek().type == Tok::kEnd) return out;
    for (;;) {
      GCUSHARE_ASSIGN_OR_RETURN(LabelSelector::Requirement r, Requirement());
      out.push_back(std::move(r));
      Tok t = Next().type;
      if (t == Tok::kEnd) return out;
      if (t != Tok::kComma) {
        return InvalidArgumentError("found '" + Last().text +
                                    "', expected: ',' or 'end of string'");
      }
    }
  }

 private:
  const Token& Peek() const { return toks_[pos_]; }
  const Token& Next() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  const Token& Last() const { return toks_[pos_ == 0 ? 0 : pos_ - 1]; }

  StatusOr<LabelSelector::Requirement> Requirement() {
    LabelSelector::Requirement r;
    bool negated = false;
    if (Peek().type == Tok::kNot) {
      Next();
      negated = true;
    }
    const Token& key = Next();
    if (key.type != Tok::kIdentifier) {
      return InvalidArgumentError("found '" + key.text +
                                  "', expected: identifier");
    }
    r.key = key.text;
    GCUSHARE_RETURN_IF_ERROR(ValidateKey(r.key));
    Tok t = Peek().type;
    if (negated || t == Tok::kComma || t == Tok::kEnd) {
      if (negated && t != Tok::kComma && t != Tok::kEnd) {
        return InvalidArgumentError("found '" + Peek().text +
                                    "', expected: ',' or 'end of string'");
      }
      r.op = negated ? LabelSelector::Op::kDoesNotExist
                     : LabelSelector::Op::kExists;
      return r;
    }
    const Token& op = Next();
    switch (op.type) {
      case Tok::kEquals:
      case Tok::kDoubleEq:
      case Tok::kNotEquals:
      case Tok::kGreater:
      case Tok::kLess: {
        r.op = op.type == Tok::kNotEquals ? LabelSelector::Op::kNotEquals
               : op.type == Tok::kGreater ? LabelSelector::Op::kGreaterThan
               : op.type == Tok::kLess    ? LabelSelector::Op::kLessThan
                                          : LabelSelector::Op::kEquals;
        std::string value;
        if (Peek().type == Tok::kIdentifier) {
          value = Next().text;
        } else if (Peek().type != Tok::kComma && Peek().type != Tok::kEnd) {
          return InvalidArgumentError("found '" + Peek().text +
                                      "', expected: identifier");
        }
        if (r.op == LabelSelector::Op::kGreaterThan ||
            r.op == LabelSelector::Op::kLessThan) {
          if (!ParseInt(value)) {
            return InvalidArgumentError(
                "unable to parse requirement: values[0]: Invalid value: \"" +
                value +
                "\": for 'Gt', 'Lt' operators, the value must be an "
                "integer");
          }
        } else {
          GCUSHARE_RETURN_IF_ERROR(ValidateValue(value));
        }
        r.values.push_back(std::move(value));
        return r;
      }
      case Tok::kIn:
      case Tok::kNotIn: {
        r.op = op.type == Tok::kIn ? LabelSelector::Op::kIn
                                   : LabelSelector::Op::kNotIn;
        if (Next().type != Tok::kOpenParen) {
          return InvalidArgumentError("found '" + Last().text +
                                      "', expected: '('");
        }
        for (;;) {
          if (Peek().type == Tok::kIdentifier) {
            r.values.push_back(Next().text);
            GCUSHARE_RETURN_IF_ERROR(ValidateValue(r.values.back()));
          } else if (Peek().type == Tok::kComma ||
                     Peek().type == Tok::kCloseParen) {
            r.values.emplace_back("");  // `k in ()` and `k in (a,)` hold "".
          } else {
            return InvalidArgumentError("found '" + Peek().text +
                                        "', expected: identifier");
          }
          const Token& sep = Next();
          if (sep.type == Tok::kCloseParen) break;
          if (sep.type != Tok::kComma) {
            return InvalidArgumentError("found '" + sep.text +
                                        "', expected: ',' or ')'");
          }
        }
        return r;
      }
      default:
        return InvalidArgumentError(
            "found '" + op.text + "', expected: '=', '!=', '==', 'in', notin'");
    }
  }

  std::vector<Token> toks_;
  size_t pos_ = 0;
};

}  // namespace

StatusOr<LabelSelector> LabelSelector::Parse(std::string_view text) {
  Parser parser(Lex(text));
  auto reqs = parser.Run();
  if (!reqs.ok()) {
    return InvalidArgumentError("unable to parse label selector \"" +
                                std::string(text) +
                                "\": " + reqs.status().message());
  }
  LabelSelector selector;
  selector.requirements_ = std::move(*reqs);
  return selector;
}

bool LabelSelector::Matches(const Json& labels) const {
  for (const Requirement& r : requirements_) {
    const std::string* value = nullptr;
    std::string holder;
    if (labels.is_object()) {
      auto it = labels.find(r.key);
      if (it != labels.end() && it->is_string()) {
        holder = it->get<std::string>();
        value = &holder;
      }
    }
    auto in_values = [&] {
      for (const std::string& v : r.values) {
        if (v == *value) return true;
      }
      return false;
    };
    switch (r.op) {
      case Op::kExists:
        if (value == nullptr) return false;
        break;
      case Op::kDoesNotExist:
        if (value != nullptr) return false;
        break;
      case Op::kEquals:
      case Op::kIn:
        if (value == nullptr || !in_values()) return false;
        break;
      case Op::kNotEquals:
      case Op::kNotIn:
        if (value != nullptr && in_values()) return false;
        break;
      case Op::kGreaterThan:
      case Op::kLessThan: {
        if (value == nullptr) return false;
        std::optional<int64_t> have = ParseInt(*value);
        std::optional<int64_t> want = ParseInt(r.values[0]);
        if (!have || !want) return false;
        if (r.op == Op::kGreaterThan ? !(*have > *want) : !(*have < *want)) {
          return false;
        }
        break;
      }
    }
  }
  return true;
}

}  // namespace gcushare::apiserver
