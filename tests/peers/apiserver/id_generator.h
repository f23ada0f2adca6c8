// Identity and time for new objects: metadata.uid (random UUIDv4),
// generateName suffixes (5 characters from the real server's alphabet, which
// avoids vowels and confusable digits), and RFC 3339 UTC timestamps with
// second precision, as metav1.Time serializes them.
//
// Ownership: owns its random engine, seeded from std::random_device.
// Thread-safety: thread-safe (a mutex guards the engine). Failure: none.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_ID_GENERATOR_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_ID_GENERATOR_H_

#include <chrono>
#include <random>
#include <string>

#include "base/mutex.h"

namespace gcushare::apiserver {

class IdGenerator {
 public:
  IdGenerator();

  // "0b8a3c5e-5d3f-4c4e-9d7a-2f1e6b9c0d12"
  std::string NewUid() EXCLUDES(mu_);
  // "x7k2p"
  std::string NameSuffix() EXCLUDES(mu_);

 private:
  base::Mutex mu_;
  std::mt19937_64 engine_ GUARDED_BY(mu_);
};

// "2024-08-13T07:28:49Z"
std::string Rfc3339(std::chrono::system_clock::time_point t);
std::string NowRfc3339();

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_ID_GENERATOR_H_
