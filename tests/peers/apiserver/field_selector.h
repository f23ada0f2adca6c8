// Field selectors as the API server parses them from ?fieldSelector=:
// comma-separated terms `field=value`, `field==value`, `field!=value`; in
// values, `\,`, `\=` and `\\` escape the separator characters.
//
// Which fields exist is the resource's business (ResourceKind's selectable
// fields); Validate() reports the first unknown one with the real server's
// message "field label not supported: <field>".
//
// Failure: Parse/Validate return InvalidArgument with the message the server
// sends in its 400. Thread-safety: an immutable value after Parse.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_FIELD_SELECTOR_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_FIELD_SELECTOR_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "status/status.h"

namespace gcushare::apiserver {

// Field name -> value, as the resource exposes them for selection.
using FieldSet = std::map<std::string, std::string>;

class FieldSelector {
 public:
  struct Requirement {
    std::string field;
    bool equals = true;  // false for !=
    std::string value;
  };

  // The empty selector: matches everything.
  FieldSelector() = default;

  static StatusOr<FieldSelector> Parse(std::string_view text);

  // InvalidArgument "field label not supported: x" unless every field is a
  // key of `supported` (values are ignored).
  Status Validate(const FieldSet& supported) const;

  // Fields missing from `fields` compare as the empty string.
  bool Matches(const FieldSet& fields) const;
  bool empty() const { return requirements_.empty(); }
  const std::vector<Requirement>& requirements() const { return requirements_; }

 private:
  std::vector<Requirement> requirements_;
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_FIELD_SELECTOR_H_
