#include "tests/peers/apiserver/request_policy_validation.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "tests/peers/apiserver/quantity.h"

namespace gcushare::apiserver {
namespace {

constexpr size_t kMaxValidValues = 10;

const Json* Child(const Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

std::string Index(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

// A quantity field of the request policy, as written.
struct Q {
  std::string text;
  std::optional<int64_t> milli;
};

std::optional<Q> QuantityAt(const Json& obj, const char* key) {
  const Json* v = Child(obj, key);
  if (v == nullptr) return std::nullopt;
  Q q;
  q.text = v->is_string() ? v->get<std::string>() : v->dump();
  q.milli = v->is_string()
                ? ParseMilliQuantity(q.text)
                : (v->is_number_integer()
                       ? std::optional<int64_t>(v->get<int64_t>() * 1000)
                       : std::nullopt);
  return q;
}

// A quantity of `milli` milli-units in a canonical form: a binary suffix
// (Ki..Ei) when `binary` and whole, else plain units or milli-units.
std::string FormatMilli(int64_t milli, bool binary) {
  if (milli % 1000 != 0) return std::to_string(milli) + "m";
  int64_t units = milli / 1000;
  if (binary && units != 0) {
    static const char* const kSuffixes[] = {"",   "Ki", "Mi", "Gi",
                                            "Ti", "Pi", "Ei"};
    int i = 0;
    while (i < 6 && units % 1024 == 0) {
      units /= 1024;
      ++i;
    }
    return std::to_string(units) + kSuffixes[i];
  }
  return std::to_string(units);
}

void ValidateStep(const Q& value, const Q& min, const Q& step,
                  const std::string& path, std::vector<FieldError>& errs) {
  if (!value.milli || !min.milli || !step.milli || *step.milli <= 0) return;
  if ((*value.milli - *min.milli) % *step.milli != 0) {
    errs.push_back(
        FieldError::Invalid(path, GoQuote(value.text),
                            "value is not a multiple of a given step (" +
                                step.text + ") from (" + min.text + ")"));
  }
}

// The validValues policy of a capacity of `value`, with default `def`.
void ValidateValidValues(const Q& value, const std::optional<Q>& def,
                         const Json& valid_values, const std::string& path,
                         std::vector<FieldError>& errs) {
  if (!def) {
    errs.push_back(FieldError::Required(
        path + ".default", "required when validValues is defined"));
    return;
  }
  const std::string vpath = path + ".validValues";
  std::vector<Q> options;
  options.reserve(valid_values.size());
  for (const Json& v : valid_values) {
    Q q;
    q.text = v.is_string() ? v.get<std::string>() : v.dump();
    q.milli = ParseMilliQuantity(q.text);
    options.push_back(q);
  }
  for (size_t i = 0; i + 1 < options.size(); ++i) {
    if (options[i].milli && options[i + 1].milli &&
        *options[i].milli > *options[i + 1].milli) {
      errs.push_back(
          FieldError::Invalid(Index(vpath, i + 1), GoQuote(options[i + 1].text),
                              "values must be sorted in ascending order"));
    }
  }
  if (options.size() > kMaxValidValues) {
    errs.push_back(FieldError::TooMany(vpath, options.size(), kMaxValidValues));
  }
  bool found_default = false;
  std::set<int64_t> seen;
  for (size_t i = 0; i < options.size(); ++i) {
    if (!options[i].milli) continue;
    if (*options[i].milli > *value.milli) {
      errs.push_back(FieldError::Invalid(
          Index(vpath, i), GoQuote(options[i].text),
          "option is larger than capacity value: " + value.text));
    }
    if (!seen.insert(*options[i].milli).second) {
      errs.push_back(FieldError::Make(FieldError::Type::kDuplicate,
                                      Index(vpath, i), GoQuote(options[i].text),
                                      ""));
    }
    if (def->milli && *options[i].milli == *def->milli) found_default = true;
  }
  if (!found_default) {
    errs.push_back(
        FieldError::Invalid(vpath, GoQuote(def->text),
                            "default value is not valid according to the "
                            "requestPolicy"));
  }
}

// The validRange policy of a capacity of `value`, with default `def`.
void ValidateValidRange(const Q& value, const std::optional<Q>& def,
                        const Json& range, const std::string& path,
                        std::vector<FieldError>& errs) {
  const std::string rpath = path + ".validRange";
  if (!def) {
    errs.push_back(FieldError::Required(path + ".default",
                                        "required when validRange is defined"));
    return;
  }
  std::optional<Q> min = QuantityAt(range, "min");
  if (!min) {
    errs.push_back(FieldError::Required(rpath + ".min",
                                        "required when validRange is defined"));
    return;
  }
  if (!min->milli || !def->milli) return;
  if (*min->milli > *value.milli) {
    errs.push_back(FieldError::Invalid(
        rpath + ".min", GoQuote(min->text),
        "min is larger than capacity value: " + value.text));
  }
  if (*def->milli < *min->milli) {
    errs.push_back(
        FieldError::Invalid(rpath + ".default", GoQuote(def->text),
                            "default is less than min: " + min->text));
  }
  std::optional<Q> max = QuantityAt(range, "max");
  if (max && max->milli) {
    if (*min->milli > *max->milli) {
      errs.push_back(
          FieldError::Invalid(rpath + ".max", GoQuote(min->text),
                              "min is larger than max: " + max->text));
    }
    if (*max->milli > *value.milli) {
      errs.push_back(FieldError::Invalid(
          rpath + ".max", GoQuote(max->text),
          "max is larger than capacity value: " + value.text));
    }
    if (*def->milli > *max->milli) {
      errs.push_back(
          FieldError::Invalid(rpath + ".default", GoQuote(def->text),
                              "default is more than max: " + max->text));
    }
  }
  std::optional<Q> step = QuantityAt(range, "step");
  if (step && step->milli) {
    if (*step->milli <= 0) {
      errs.push_back(FieldError::Invalid(rpath + ".step", GoQuote(step->text),
                                         "must be greater than zero"));
      return;
    }
    if (*min->milli + *step->milli > *value.milli) {
      const bool binary = !min->text.empty() && min->text.back() == 'i';
      errs.push_back(FieldError::Invalid(
          rpath + ".step", GoQuote(step->text),
          "one step " + FormatMilli(*min->milli + *step->milli, binary) +
              " is larger than capacity value: " + value.text));
    }
    ValidateStep(*def, *min, *step, rpath + ".step", errs);
    if (max && max->milli)
      ValidateStep(*max, *min, *step, rpath + ".step", errs);
  }
}

}  // namespace

void ValidateRequestPolicy(const Json& capacity, const Json& policy,
                           const std::string& path,
                           std::vector<FieldError>& errs) {
  std::optional<Q> value = QuantityAt(capacity, "value");
  if (!value || !value->milli) return;  // Not a quantity: decoding's error.
  const Json* valid_values = Child(policy, "validValues");
  const Json* range = Child(policy, "validRange");
  const bool has_values = valid_values != nullptr && valid_values->is_array() &&
                          !valid_values->empty();
  if (has_values && range != nullptr) {
    FieldError e =
        FieldError::Make(FieldError::Type::kForbidden, path, "",
                         "exactly one policy can be specified, cannot "
                         "specify \"validValues\" and \"validRange\" at the "
                         "same time");
    errs.push_back(e);
    return;
  }
  std::optional<Q> def = QuantityAt(policy, "default");
  if (has_values) {
    ValidateValidValues(*value, def, *valid_values, path, errs);
    return;
  }
  if (range == nullptr) return;
  ValidateValidRange(*value, def, *range, path, errs);
}

}  // namespace gcushare::apiserver
