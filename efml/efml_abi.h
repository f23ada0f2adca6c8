// Our declaration of the part of the vendor's EFML C ABI that GCUShare uses,
// written after the vendor's public header (EnflameTechnology/gcu-exporter,
// vendor/go-eflib/efml/efml.h). Both the dlopen loader and the fake library
// of the tests use these types, so they cannot drift apart.
#ifndef GCUSHARE_EFML_EFML_ABI_H_
#define GCUSHARE_EFML_EFML_ABI_H_

#include <cstddef>
#include <cstdint>

namespace gcushare::efml::abi {

// efmlReturn_t is a C enum, passed as int.
using efmlReturn_t = int;
inline constexpr efmlReturn_t kSuccess = 0;
inline constexpr efmlReturn_t kUninitialized = 1;
inline constexpr efmlReturn_t kInvalidArgument = 2;
inline constexpr size_t kMaxCharBuffLen = 128;  // MAX_CHAR_BUFF_LEN

struct efmlDevMemInfo_t {
  uint64_t mem_total_size;  // Taken as MiB (see efml_card_source.cc).
  uint32_t mem_used;
};

struct efmlDeviceInfo_t {
  char name[kMaxCharBuffLen];
  uint32_t vendor_id;
  uint32_t device_id;
  uint32_t domain_id;
  uint32_t bus_id;
  uint32_t dev_id;
  uint32_t func_id;
  uint32_t logic_id;
};

using EfmlInitFn = efmlReturn_t (*)(bool no_driver);
using EfmlShutdownFn = void (*)();
using EfmlGetDevCountFn = efmlReturn_t (*)(uint32_t* dev_count);
using EfmlGetDevUuidFn = efmlReturn_t (*)(uint32_t dev_idx, char* p_info);
using EfmlGetDevMemFn = efmlReturn_t (*)(uint32_t dev_idx,
                                         efmlDevMemInfo_t* p_mem);
using EfmlGetDevHealthFn = efmlReturn_t (*)(uint32_t dev_idx, bool* health);
using EfmlGetNumaNodeFn = efmlReturn_t (*)(uint32_t dev_idx, int* numa_node);
using EfmlGetDevInfoFn = efmlReturn_t (*)(uint32_t dev_idx,
                                          efmlDeviceInfo_t* p_info);

}  // namespace gcushare::efml::abi

#endif  // GCUSHARE_EFML_EFML_ABI_H_
