// Label selectors as the API server parses them from ?labelSelector=:
// `k=v`, `k==v`, `k!=v`, `k`, `!k`, `k in (a,b)`, `k notin (a,b)`, `k>3`,
// `k<3`; a comma means AND; whitespace around tokens is ignored.
//
// Semantics follow k8s.io/apimachinery/pkg/labels: `!=` and `notin` match an
// object that lacks the key; `in`, `=` and `==` need the key; `>`/`<` compare
// integers. Keys must be qualified names ([prefix/]name) and values valid label
// values.
//
// Failure: Parse returns InvalidArgument with a message in the spirit of the
// real parser (the server answers 400 with it). Thread-safety: an immutable
// value after Parse.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_LABEL_SELECTOR_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_LABEL_SELECTOR_H_

#include <string>
#include <string_view>
#include <vector>

#include "status/status.h"
#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {

class LabelSelector {
 public:
  enum class Op {
    kEquals,
    kNotEquals,
    kIn,
    kNotIn,
    kExists,
    kDoesNotExist,
    kGreaterThan,
    kLessThan
  };
  struct Requirement {
    std::string key;
    Op op = Op::kExists;
    std::vector<std::string> values;
  };

  // The empty selector: matches everything.
  LabelSelector() = default;

  static StatusOr<LabelSelector> Parse(std::string_view text);

  // `labels` is metadata.labels: an object of strings, or null/absent.
  bool Matches(const Json& labels) const;
  bool empty() const { return requirements_.empty(); }
  const std::vector<Requirement>& requirements() const { return requirements_; }

 private:
  std::vector<Requirement> requirements_;
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_LABEL_SELECTOR_H_
