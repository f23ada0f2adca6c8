// Big-endian 32-bit integers in byte buffers (ttrpc and mux headers).
#ifndef GCUSHARE_NRI_PLUGIN_NET_BIG_ENDIAN_H_
#define GCUSHARE_NRI_PLUGIN_NET_BIG_ENDIAN_H_

#include <cstdint>

namespace gcushare::nri {

inline void PutBigEndian32(char* out, uint32_t value) {
  out[0] = static_cast<char>(value >> 24);
  out[1] = static_cast<char>(value >> 16);
  out[2] = static_cast<char>(value >> 8);
  out[3] = static_cast<char>(value);
}

inline uint32_t GetBigEndian32(const char* in) {
  const auto* b = reinterpret_cast<const unsigned char*>(in);
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) |
         (uint32_t{b[2]} << 8) | uint32_t{b[3]};
}

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_NET_BIG_ENDIAN_H_
