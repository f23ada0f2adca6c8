// A stand-in for Enflame's libefml.so, for tests of EfmlCardSource.
//
// Its cards come from the environment, read on every call so that a test can
// change them between polls:
//   FAKE_EFML_CARDS="uuid,memMiB,healthy,numa,pci;..."  one entry per card;
//       healthy is 0/1, numa -1 for unknown, pci "dddd:bb:dd.f" or empty.
//   FAKE_EFML_INIT_RC=<n>    EfmlInit returns n.
//   FAKE_EFML_MEM_RC=<n>     EfmlGetDevMem returns n.
//   FAKE_EFML_HEALTH_RC=<n>  EfmlGetDevHealth returns n.
// Built with -DFAKE_EFML_NO_MEM it lacks EfmlGetDevMem (a broken library);
// with -DFAKE_EFML_OLD it lacks the optional EfmlGetNumaNode and
// EfmlGetDevInfo (an older library).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "efml/efml_abi.h"

namespace {

using gcushare::efml::abi::efmlDeviceInfo_t;
using gcushare::efml::abi::efmlDevMemInfo_t;
using gcushare::efml::abi::kInvalidArgument;
using gcushare::efml::abi::kSuccess;
using gcushare::efml::abi::kUninitialized;

struct FakeCard {
  std::string uuid;
  uint64_t memory_mib = 0;
  bool healthy = true;
  int numa = -1;
  unsigned domain = 0, bus = 0, dev = 0, func = 0;
};

bool initialized = false;

int EnvInt(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value == nullptr ? fallback : std::atoi(value);
}

std::vector<FakeCard> Cards() {
  std::vector<FakeCard> cards;
  const char* env = std::getenv("FAKE_EFML_CARDS");
  if (env == nullptr) return cards;
  std::stringstream entries(env);
  std::string entry;
  while (std::getline(entries, entry, ';')) {
    if (entry.empty()) continue;
    std::stringstream fields(entry);
    std::string uuid, memory, healthy, numa, pci;
    std::getline(fields, uuid, ',');
    std::getline(fields, memory, ',');
    std::getline(fields, healthy, ',');
    std::getline(fields, numa, ',');
    std::getline(fields, pci, ',');
    FakeCard card;
    card.uuid = uuid;
    card.memory_mib = std::strtoull(memory.c_str(), nullptr, 10);
    card.healthy = healthy != "0";
    card.numa = numa.empty() ? -1 : std::atoi(numa.c_str());
    std::sscanf(pci.c_str(), "%x:%x:%x.%x", &card.domain, &card.bus, &card.dev,
                &card.func);
    cards.push_back(card);
  }
  return cards;
}

// Returns the card or sets rc.
bool Lookup(uint32_t dev_idx, FakeCard& card, int& rc) {
  if (!initialized) {
    rc = kUninitialized;
    return false;
  }
  std::vector<FakeCard> cards = Cards();
  if (dev_idx >= cards.size()) {
    rc = kInvalidArgument;
    return false;
  }
  card = cards[dev_idx];
  return true;
}

}  // namespace

extern "C" {

int EfmlInit(bool no_driver) {
  if (no_driver) return kInvalidArgument;  // We always ask for the driver.
  int rc = EnvInt("FAKE_EFML_INIT_RC", kSuccess);
  if (rc == kSuccess) initialized = true;
  return rc;
}

void EfmlShutdown(void) { initialized = false; }

int EfmlGetDevCount(uint32_t* dev_count) {
  if (!initialized) return kUninitialized;
  *dev_count = static_cast<uint32_t>(Cards().size());
  return kSuccess;
}

int EfmlGetDevUuid(uint32_t dev_idx, char* p_info) {
  FakeCard card;
  int rc = kSuccess;
  if (!Lookup(dev_idx, card, rc)) return rc;
  std::snprintf(p_info, 128, "%s", card.uuid.c_str());
  return kSuccess;
}

#ifndef FAKE_EFML_NO_MEM
int EfmlGetDevMem(uint32_t dev_idx, efmlDevMemInfo_t* p_mem) {
  FakeCard card;
  int rc = kSuccess;
  if (!Lookup(dev_idx, card, rc)) return rc;
  rc = EnvInt("FAKE_EFML_MEM_RC", kSuccess);
  if (rc != kSuccess) return rc;
  p_mem->mem_total_size = card.memory_mib;
  p_mem->mem_used = 0;
  return kSuccess;
}
#endif

int EfmlGetDevHealth(uint32_t dev_idx, bool* health) {
  FakeCard card;
  int rc = kSuccess;
  if (!Lookup(dev_idx, card, rc)) return rc;
  rc = EnvInt("FAKE_EFML_HEALTH_RC", kSuccess);
  if (rc != kSuccess) return rc;
  *health = card.healthy;
  return kSuccess;
}

#ifndef FAKE_EFML_OLD
int EfmlGetNumaNode(uint32_t dev_idx, int* numa_node) {
  FakeCard card;
  int rc = kSuccess;
  if (!Lookup(dev_idx, card, rc)) return rc;
  *numa_node = card.numa;
  return kSuccess;
}

int EfmlGetDevInfo(uint32_t dev_idx, efmlDeviceInfo_t* p_info) {
  FakeCard card;
  int rc = kSuccess;
  if (!Lookup(dev_idx, card, rc)) return rc;
  std::memset(p_info, 0, sizeof(*p_info));
  std::snprintf(p_info->name, sizeof(p_info->name), "fake GCU");
  p_info->vendor_id = 0x1e36;
  p_info->domain_id = card.domain;
  p_info->bus_id = card.bus;
  p_info->dev_id = card.dev;
  p_info->func_id = card.func;
  p_info->logic_id = dev_idx;
  return kSuccess;
}
#endif

}  // extern "C"
