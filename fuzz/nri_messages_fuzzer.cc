// Fuzzes the NRI protobuf messages the plugin receives: the first byte
// picks the message, the rest is its wire form. A CreateContainerRequest
// then goes through what the plugin reads from it (the pod's annotations
// resolved to the container's cards), as the container adjuster does.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "nri-plugin/api/api.pb.h"
#include "nri-plugin/card_request.h"

namespace {

namespace api = ::nri::pkg::api::v1alpha1;

void ResolveCards(const api::CreateContainerRequest& request) {
  nlohmann::json annotations = nlohmann::json::object();
  for (const auto& [key, value] : request.pod().annotations()) {
    annotations[key] = value;
  }
  (void)gcushare::nri::ResolveContainerCards(
      annotations, request.container().name(), nullptr);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string wire(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 6) {
    case 0: {
      api::CreateContainerRequest m;
      if (m.ParseFromString(wire)) ResolveCards(m);
      break;
    }
    case 1: {
      api::ConfigureRequest m;
      (void)m.ParseFromString(wire);
      break;
    }
    case 2: {
      api::SynchronizeRequest m;
      (void)m.ParseFromString(wire);
      break;
    }
    case 3: {
      api::StateChangeEvent m;
      (void)m.ParseFromString(wire);
      break;
    }
    case 4: {
      api::UpdateContainersResponse m;
      (void)m.ParseFromString(wire);
      break;
    }
    default: {
      api::Empty m;
      (void)m.ParseFromString(wire);
      break;
    }
  }
  return 0;
}
