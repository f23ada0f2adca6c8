#include "tests/peers/apiserver/id_generator.h"

#include <cstdio>
#include <ctime>

namespace gcushare::apiserver {

IdGenerator::IdGenerator() {
  std::random_device device;
  std::seed_seq seed{device(), device(), device(), device()};
  engine_.seed(seed);
}

std::string IdGenerator::NewUid() {
  uint64_t hi;
  uint64_t lo;
  {
    base::MutexLock lock(mu_);
    hi = engine_();
    lo = engine_();
  }
  hi = (hi & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;  // Version 4.
  lo = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;  // RFC 4122.
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%08x-%04x-%04x-%04x-%012llx",
                static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xffff),
                static_cast<unsigned>(hi & 0xffff),
                static_cast<unsigned>(lo >> 48),
                static_cast<unsigned long long>(lo & 0xffffffffffffULL));
  return buf;
}

std::string IdGenerator::NameSuffix() {
  // The alphabet of k8s.io/apimachinery/pkg/util/rand.String.
  constexpr char kAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  constexpr size_t kSize = sizeof(kAlphabet) - 1;
  std::string out;
  base::MutexLock lock(mu_);
  for (int i = 0; i < 5; ++i) out += kAlphabet[engine_() % kSize];
  return out;
}

std::string Rfc3339(std::chrono::system_clock::time_point t) {
  std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string NowRfc3339() { return Rfc3339(std::chrono::system_clock::now()); }

}  // namespace gcushare::apiserver
