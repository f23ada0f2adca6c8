// Deterministic input mutator for the replay driver (replay_main.cc): a
// small stand-in for libFuzzer's mutations (bit flips, byte edits, inserts,
// erases, duplicated chunks, splices, dictionary tokens, and numbers
// replaced by their extremes: 64-bit limits, -0, int32-edge exponents,
// huge digit runs, quantity suffixes) driven by a seeded
// xorshift generator, so a CI run is the same on every machine.

#ifndef GCUSHARE_FUZZ_MUTATOR_H_
#define GCUSHARE_FUZZ_MUTATOR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gcushare::fuzz {

// Thread-safety: not thread-safe (one generator state).
class Mutator {
 public:
  // `tokens`: dictionary entries to insert or overwrite with (may be empty).
  Mutator(uint64_t seed, std::vector<std::string> tokens);

  // One input derived from a random member of `corpus` (non-empty) by one
  // to four mutations; at most kMaxSize bytes.
  std::string Mutate(const std::vector<std::string>& corpus);

  static constexpr size_t kMaxSize = 1 << 20;

 private:
  uint64_t Next();
  size_t Below(size_t n) { return n == 0 ? 0 : Next() % n; }
  void MutateOnce(const std::vector<std::string>& corpus, std::string* input);

  uint64_t state_;
  std::vector<std::string> tokens_;
};

}  // namespace gcushare::fuzz

#endif  // GCUSHARE_FUZZ_MUTATOR_H_
