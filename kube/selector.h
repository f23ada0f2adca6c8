// Label and field selectors evaluated locally (FakeKubeClient), with the
// equality-based syntax of docs/protocols.md 3.1: comma-separated terms
//   labels: key=value, key==value, key!=value, key (exists), !key (absent)
//   fields: dotted.path=value, ==, != (e.g. spec.nodeName=n1); an absent
//           field reads as "" (spec.nodeName= selects unscheduled pods)
// Set-based label syntax ("in", "notin") is InvalidArgument.
//
// A value type; thread-compatible.
#ifndef GCUSHARE_KUBE_SELECTOR_H_
#define GCUSHARE_KUBE_SELECTOR_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "status/status.h"

namespace gcushare::kube {

class Selector {
 public:
  static StatusOr<Selector> ParseLabels(std::string_view text);
  static StatusOr<Selector> ParseFields(std::string_view text);

  // Whether `object` satisfies every term (an empty selector matches all).
  bool Matches(const nlohmann::json& object) const;

 private:
  enum class Op { kEquals, kNotEquals, kExists, kNotExists };
  struct Term {
    std::vector<std::string> path;  // Into the object.
    Op op;
    std::string value;
    bool missing_is_empty = false;  // Fields: an absent field reads "".
  };
  static StatusOr<Selector> Parse(std::string_view text, bool labels);
  // One non-empty term; errors start with `where` (the selector's kind and
  // text).
  static StatusOr<Term> ParseTerm(const std::string& term, bool labels,
                                  const std::string& where);

  std::vector<Term> terms_;
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_SELECTOR_H_
