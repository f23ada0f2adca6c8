#include "tests/peers/dra_scheduler/share_id.h"

#include <cstdio>

namespace gcushare::dra_scheduler {

RandomShareIds::RandomShareIds() : engine_(std::random_device{}()) {}

std::string RandomShareIds::Next() {
  uint64_t high = 0;
  uint64_t low = 0;
  {
    base::MutexLock lock(mu_);
    high = engine_();
    low = engine_();
  }
  high = (high & ~uint64_t{0xF000}) | uint64_t{0x4000};          // Version 4.
  low = (low & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);  // RFC 4122.
  char text[37];
  std::snprintf(text, sizeof(text), "%08x-%04x-%04x-%04x-%012llx",
                static_cast<unsigned>(high >> 32),
                static_cast<unsigned>((high >> 16) & 0xFFFF),
                static_cast<unsigned>(high & 0xFFFF),
                static_cast<unsigned>(low >> 48),
                static_cast<unsigned long long>(low & 0xFFFFFFFFFFFFULL));
  return text;
}

std::string SequentialShareIds::Next() {
  uint64_t n = 0;
  {
    base::MutexLock lock(mu_);
    n = next_++;
  }
  char text[37];
  std::snprintf(text, sizeof(text), "00000000-0000-4000-8000-%012llx",
                static_cast<unsigned long long>(n));
  return text;
}

}  // namespace gcushare::dra_scheduler
