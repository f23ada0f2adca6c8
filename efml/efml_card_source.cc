#include "efml/efml_card_source.h"

#include <dlfcn.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <utility>

#include "efml/device_numbers.h"
#include "efml/efml_abi.h"

namespace gcushare::efml {
namespace {

using abi::efmlDeviceInfo_t;
using abi::efmlDevMemInfo_t;
using abi::EfmlGetDevCountFn;
using abi::EfmlGetDevHealthFn;
using abi::EfmlGetDevInfoFn;
using abi::EfmlGetDevMemFn;
using abi::EfmlGetDevUuidFn;
using abi::EfmlGetNumaNodeFn;
using abi::EfmlInitFn;
using abi::efmlReturn_t;
using abi::EfmlShutdownFn;
constexpr efmlReturn_t kEfmlSuccess = abi::kSuccess;
constexpr size_t kMaxCharBuffLen = abi::kMaxCharBuffLen;

Status CallFailed(const std::string& call, efmlReturn_t rc) {
  return UnavailableError(call + " failed: " + EfmlReturnCodeName(rc));
}

// Where the host path `path` ("/dev/gcu0") is under `root`.
std::string HostPath(const std::string& root, const std::string& path) {
  if (root.empty() || root == "/") return path;
  return (root.back() == '/' ? root.substr(0, root.size() - 1) : root) + path;
}

std::string CallName(const char* function, uint32_t dev_idx) {
  return std::string(function) + "(" + std::to_string(dev_idx) + ")";
}

}  // namespace

std::string EfmlReturnCodeName(int code) {
  const char* name = "EFML_UNKNOWN";
  switch (code) {
    case 0:
      name = "EFML_SUCCESS";
      break;
    case 1:
      name = "EFML_ERROR_UNINITIALIZED";
      break;
    case 2:
      name = "EFML_ERROR_INVALID_ARGUMENT";
      break;
    case 3:
      name = "EFML_ERROR_NOT_SUPPORTED";
      break;
    case 4:
      name = "EFML_ERROR_LIBRARY_NOT_FOUND";
      break;
    case 5:
      name = "EFML_ERROR_NOT_SUPPORTED_ERROR_CODE";
      break;
    case 6:
      name = "EFML_ERROR_DRIVER_NOT_LOADED";
      break;
    case 7:
      name = "EFML_ERROR_ESL_PORT_NUMBER_ERR";
      break;
    case 8:
      name = "EFML_ERROR_INVALID_INPUT";
      break;
    case 9:
      name = "EFML_ERROR_FUNCTION_NOT_FOUND";
      break;
    case 10:
      name = "EFML_ERROR_OPEN_DRIVER_VERSION";
      break;
    case 11:
      name = "EFML_ERROR_DRIVER_NOT_COMPATIBLE";
      break;
    case 253:
      name = "EFML_ERROR_TIMEOUT";
      break;
    case 254:
      name = "EFML_ERROR_FAIL";
      break;
    case 255:
      name = "EFML_ERROR_MAX";
      break;
  }
  return std::string(name) + " (" + std::to_string(code) + ")";
}

struct EfmlCardSource::Library {
  ~Library() {
    if (initialized) shutdown();
    if (handle != nullptr) dlclose(handle);
  }

  std::string path;
  void* handle = nullptr;
  bool initialized = false;
  EfmlInitFn init = nullptr;
  EfmlShutdownFn shutdown = nullptr;
  EfmlGetDevCountFn get_dev_count = nullptr;
  EfmlGetDevUuidFn get_dev_uuid = nullptr;
  EfmlGetDevMemFn get_dev_mem = nullptr;
  EfmlGetDevHealthFn get_dev_health = nullptr;
  EfmlGetNumaNodeFn get_numa_node = nullptr;  // Optional.
  EfmlGetDevInfoFn get_dev_info = nullptr;    // Optional.
};

namespace {

// Resolves `name` into `fn`; a missing required symbol is an error.
template <typename Fn>
Status Resolve(void* handle, const std::string& path, const char* name,
               bool required, Fn& fn) {
  dlerror();  // Clear any stale error.
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  if (fn == nullptr && required) {
    return UnavailableError("libefml.so at " + path + " lacks " + name);
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<EfmlCardSource>> EfmlCardSource::Create(
    const std::string& library_path, const std::string& root) {
  auto library = std::make_unique<Library>();
  library->path = library_path;
  library->handle = dlopen(library_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library->handle == nullptr) {
    const char* error = dlerror();
    return UnavailableError("cannot load " + library_path + ": " +
                            (error != nullptr ? error : "unknown error"));
  }
  void* h = library->handle;
  const std::string& path = library->path;
  GCUSHARE_RETURN_IF_ERROR(Resolve(h, path, "EfmlInit", true, library->init));
  GCUSHARE_RETURN_IF_ERROR(
      Resolve(h, path, "EfmlShutdown", true, library->shutdown));
  GCUSHARE_RETURN_IF_ERROR(
      Resolve(h, path, "EfmlGetDevCount", true, library->get_dev_count));
  GCUSHARE_RETURN_IF_ERROR(
      Resolve(h, path, "EfmlGetDevUuid", true, library->get_dev_uuid));
  GCUSHARE_RETURN_IF_ERROR(
      Resolve(h, path, "EfmlGetDevMem", true, library->get_dev_mem));
  GCUSHARE_RETURN_IF_ERROR(
      Resolve(h, path, "EfmlGetDevHealth", true, library->get_dev_health));
  GCUSHARE_RETURN_IF_ERROR(
      Resolve(h, path, "EfmlGetNumaNode", false, library->get_numa_node));
  GCUSHARE_RETURN_IF_ERROR(
      Resolve(h, path, "EfmlGetDevInfo", false, library->get_dev_info));

  efmlReturn_t rc = library->init(/*no_driver=*/false);
  if (rc != kEfmlSuccess) return CallFailed("EfmlInit", rc);
  library->initialized = true;
  if (library->get_numa_node == nullptr) {
    spdlog::info("{} has no EfmlGetNumaNode: NUMA nodes stay unknown", path);
  }
  if (library->get_dev_info == nullptr) {
    spdlog::info("{} has no EfmlGetDevInfo: PCI addresses stay unknown", path);
  }
  return std::unique_ptr<EfmlCardSource>(
      new EfmlCardSource(std::move(library), root));
}

EfmlCardSource::EfmlCardSource(std::unique_ptr<Library> library,
                               std::string root)
    : library_(std::move(library)), root_(std::move(root)) {}

EfmlCardSource::~EfmlCardSource() = default;

StatusOr<Inventory> EfmlCardSource::Discover() {
  const Library& lib = *library_;
  uint32_t count = 0;
  efmlReturn_t rc = lib.get_dev_count(&count);
  if (rc != kEfmlSuccess) return CallFailed("EfmlGetDevCount", rc);
  if (count == 0) {
    return NotFoundError("libefml.so at " + lib.path + " reports no devices");
  }

  Inventory inventory;
  for (uint32_t i = 0; i < count; ++i) {
    Card card;
    card.index = i;

    char uuid[kMaxCharBuffLen] = {};
    rc = lib.get_dev_uuid(i, uuid);
    if (rc != kEfmlSuccess)
      return CallFailed(CallName("EfmlGetDevUuid", i), rc);
    uuid[kMaxCharBuffLen - 1] = '\0';  // Do not trust the library to end it.
    card.uuid = uuid;

    // The header does not state the unit of mem_total_size; we assume MiB
    // (what gcu-exporter reports as memory size). Revisit with real cards.
    efmlDevMemInfo_t memory = {};
    rc = lib.get_dev_mem(i, &memory);
    if (rc != kEfmlSuccess) return CallFailed(CallName("EfmlGetDevMem", i), rc);
    card.memory_mib = memory.mem_total_size;

    bool healthy = false;
    rc = lib.get_dev_health(i, &healthy);
    if (rc != kEfmlSuccess) {
      // A card too sick to answer is unhealthy; it must not hide the others.
      spdlog::warn("{} failed: {}; reporting card {} unhealthy",
                   CallName("EfmlGetDevHealth", i), EfmlReturnCodeName(rc), i);
      healthy = false;
    }
    card.healthy = healthy;

    if (lib.get_numa_node != nullptr) {
      int numa = -1;
      if (lib.get_numa_node(i, &numa) == kEfmlSuccess && numa >= 0) {
        card.numa_node = numa;
      }
    }
    if (lib.get_dev_info != nullptr) {
      efmlDeviceInfo_t info = {};
      if (lib.get_dev_info(i, &info) == kEfmlSuccess) {
        char pci[32];
        std::snprintf(pci, sizeof(pci), "%04x:%02x:%02x.%x", info.domain_id,
                      info.bus_id, info.dev_id, info.func_id);
        card.pci_address = pci;
      }
    }

    card.device.path = DefaultDevicePath(i);
    std::string host_path =
        root_ == "/" ? card.device.path : root_ + card.device.path;
    FillDeviceNumbersFromStat(host_path, card.device);
    inventory.cards.push_back(std::move(card));
  }

  // The driver's shared control node, when it has one.
  DeviceNode control;
  control.path = "/dev/gcuctl";
  std::string control_host_path = HostPath(root_, control.path);
  if (access(control_host_path.c_str(), F_OK) == 0) {
    FillDeviceNumbersFromStat(control_host_path, control);
    inventory.control_nodes.push_back(std::move(control));
  }

  Status normalized = NormalizeInventory(inventory);
  if (!normalized.ok()) {
    return normalized.WithContext("libefml.so at " + lib.path);
  }
  return inventory;
}

}  // namespace gcushare::efml
