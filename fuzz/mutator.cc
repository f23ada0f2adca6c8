#include "fuzz/mutator.h"

#include <iterator>
#include <utility>

namespace gcushare::fuzz {
namespace {

// Values that tend to sit on parser boundaries.
const char* const kInteresting[] = {
    "0",          "-1",   "18446744073709551616",
    "4294967296", "\"",   "\\",
    "{",          "}",    "[",
    "]",          ":",    ",",
    "\n",         "- ",   "null",
    "1e309",      "\xff",
    "",  // Stands for a NUL byte (see case 6).
};

// Numbers at their extremes, written over a number of the input (case 7):
// the int32/int64/uint64 limits and one past them, negative zero, huge
// digit runs, double and quantity exponents at the int32 edges, and the
// quantity suffixes at their largest.
const char* const kNumericExtremes[] = {
    "-0",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999999999999",
    "0.00000000000000000000000000000000000000001",
    "1e308",
    "1e-308",
    "1e2147483647",
    "1e2147483648",
    "1.5e-2147483648",
    "0e-2147483648",
    "1e4294967296",
    "15Ei",
    "16Ei",
    "18E",
    "1000000000n",
    "2000000u",
    "1500m",
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsNumberChar(char c) {
  return IsDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

}  // namespace

Mutator::Mutator(uint64_t seed, std::vector<std::string> tokens)
    : state_(seed == 0 ? 1 : seed), tokens_(std::move(tokens)) {}

uint64_t Mutator::Next() {
  state_ ^= state_ << 13;
  state_ ^= state_ >> 7;
  state_ ^= state_ << 17;
  return state_;
}

std::string Mutator::Mutate(const std::vector<std::string>& corpus) {
  std::string input = corpus[Below(corpus.size())];
  const size_t count = 1 + Below(4);
  for (size_t i = 0; i < count; ++i) MutateOnce(corpus, &input);
  if (input.size() > kMaxSize) input.resize(kMaxSize);
  return input;
}

void Mutator::MutateOnce(const std::vector<std::string>& corpus,
                         std::string* input) {
  const size_t at = Below(input->size() + 1);
  switch (Below(9)) {
    case 0:  // Flip one bit.
      if (!input->empty()) {
        (*input)[Below(input->size())] ^= static_cast<char>(1 << Below(8));
      }
      break;
    case 1:  // Overwrite one byte.
      if (!input->empty()) {
        (*input)[Below(input->size())] = static_cast<char>(Next());
      }
      break;
    case 2:  // Insert one byte.
      input->insert(at, 1, static_cast<char>(Next()));
      break;
    case 3:  // Erase a range.
      input->erase(at, 1 + Below(16));
      break;
    case 4: {  // Duplicate a chunk in place.
      if (at < input->size()) {
        const std::string chunk = input->substr(at, 1 + Below(64));
        input->insert(Below(input->size() + 1), chunk);
      }
      break;
    }
    case 5: {  // Splice: our head, another input's tail.
      const std::string& other = corpus[Below(corpus.size())];
      input->resize(at);
      input->append(other, Below(other.size() + 1));
      break;
    }
    case 6: {  // Insert an interesting value.
      const size_t n = sizeof(kInteresting) / sizeof(kInteresting[0]);
      const size_t pick = Below(n);
      input->insert(at, pick == n - 1 ? std::string(1, '\0')
                                      : std::string(kInteresting[pick]));
      break;
    }
    case 7: {  // Write an extreme over the first number from `at` (or insert).
      const std::string extreme =
          kNumericExtremes[Below(std::size(kNumericExtremes))];
      size_t begin = at;
      while (begin < input->size() && !IsDigit((*input)[begin])) ++begin;
      if (begin == input->size()) {
        input->insert(at, extreme);
        break;
      }
      while (begin > 0 &&
             ((*input)[begin - 1] == '-' || (*input)[begin - 1] == '+' ||
              (*input)[begin - 1] == '.' || IsDigit((*input)[begin - 1]))) {
        --begin;
      }
      size_t end = begin;
      while (end < input->size() && IsNumberChar((*input)[end])) ++end;
      input->replace(begin, end - begin, extreme);
      break;
    }
    default:  // Insert a dictionary token (or truncate when none).
      if (tokens_.empty()) {
        input->resize(at);
      } else {
        input->insert(at, tokens_[Below(tokens_.size())]);
      }
      break;
  }
}

}  // namespace gcushare::fuzz
