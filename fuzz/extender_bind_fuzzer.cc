// Fuzzes the extender's bind body (ExtenderBindingArgs) and the reply it
// encodes.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extender/protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  gcushare::StatusOr<gcushare::extender::BindingArgs> args =
      gcushare::extender::ParseBindingArgs(body);
  if (!args.ok()) {
    (void)gcushare::extender::EncodeBindingResult(args.status().message());
    return 0;
  }
  (void)gcushare::extender::EncodeBindingResult(args->pod_name + "/" +
                                                args->node);
  return 0;
}
