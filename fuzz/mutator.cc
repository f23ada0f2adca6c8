#include "fuzz/mutator.h"

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
  switch (Below(8)) {
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
