#include "efml/scan_card_source.h"

#include <charconv>
#include <filesystem>
#include <optional>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "efml/device_numbers.h"
#include "efml/read_file.h"

namespace gcushare::efml {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kPciDevices = "sys/bus/pci/devices";
// Driver directories under a PCI device that hold gcuN entries.
constexpr std::string_view kDriverDirs[] = {"enflame", "zixiao"};

std::string_view Trim(std::string_view text) {
  const char* kSpace = " \t\r\n";
  size_t begin = text.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(kSpace);
  return text.substr(begin, end - begin + 1);
}

template <typename Int>
std::optional<Int> ParseInt(std::string_view text) {
  Int value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// N from "gcuN", or nothing for any other name.
std::optional<uint32_t> GcuIndex(std::string_view name) {
  constexpr std::string_view kPrefix = "gcu";
  if (name.size() <= kPrefix.size() || name.substr(0, 3) != kPrefix) {
    return std::nullopt;
  }
  std::string_view digits = name.substr(kPrefix.size());
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  return ParseInt<uint32_t>(digits);
}

// The trimmed contents of an optional sysfs attribute: nullopt when the file
// does not exist, an error when it exists but cannot be read.
StatusOr<std::optional<std::string>> ReadOptionalAttribute(
    const fs::path& path) {
  StatusOr<std::string> text = ReadFileToString(path.string());
  if (!text.ok()) {
    if (text.status().code() == StatusCode::kNotFound) {
      return std::optional<std::string>();
    }
    return text.status();
  }
  return std::optional<std::string>(std::string(Trim(*text)));
}

Status Malformed(const fs::path& path, std::string_view text,
                 std::string_view expected) {
  return InvalidArgumentError(path.string() + ": expected " +
                              std::string(expected) + ", got \"" +
                              std::string(text) + "\"");
}

// The names of the entries of `dir`, or an error naming it.
StatusOr<std::vector<std::string>> ListDirectory(const fs::path& dir) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) return ErrnoToStatus(ec.value(), dir.string());
  std::vector<std::string> names;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) return ErrnoToStatus(ec.value(), dir.string());
    names.push_back(it->path().filename().string());
  }
  if (ec) return ErrnoToStatus(ec.value(), dir.string());
  return names;
}

bool Exists(const fs::path& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

// Reads card `index` from its sysfs entry `gcu_dir`
// (<pci_dir>/<driver>/<name>).
StatusOr<Card> ReadCard(const fs::path& root, const fs::path& pci_dir,
                        const fs::path& gcu_dir, const std::string& bdf,
                        const std::string& name, uint32_t index,
                        uint64_t default_memory_mib) {
  Card card;
  card.index = index;
  card.pci_address = bdf;
  card.device.path = DefaultDevicePath(index);

  const fs::path dev_file = gcu_dir / "dev";
  GCUSHARE_ASSIGN_OR_RETURN(std::optional<std::string> dev,
                            ReadOptionalAttribute(dev_file));
  if (dev) {
    size_t colon = dev->find(':');
    std::optional<uint32_t> major, minor;
    if (colon != std::string::npos) {
      major = ParseInt<uint32_t>(std::string_view(*dev).substr(0, colon));
      minor = ParseInt<uint32_t>(std::string_view(*dev).substr(colon + 1));
    }
    if (!major || !minor) return Malformed(dev_file, *dev, "major:minor");
    card.device.major = major;
    card.device.minor = minor;
  }

  const fs::path numa_file = pci_dir / "numa_node";
  GCUSHARE_ASSIGN_OR_RETURN(std::optional<std::string> numa,
                            ReadOptionalAttribute(numa_file));
  if (numa) {
    std::optional<int> node = ParseInt<int>(*numa);
    if (!node || *node < -1) {
      return Malformed(numa_file, *numa, "a NUMA node or -1");
    }
    if (*node >= 0) card.numa_node = *node;
  }

  const fs::path memory_file = gcu_dir / "mem_total_mib";
  GCUSHARE_ASSIGN_OR_RETURN(std::optional<std::string> memory,
                            ReadOptionalAttribute(memory_file));
  if (memory) {
    std::optional<uint64_t> mib = ParseInt<uint64_t>(*memory);
    if (!mib || *mib == 0) {
      return Malformed(memory_file, *memory, "a positive number of MiB");
    }
    card.memory_mib = *mib;
  } else if (default_memory_mib > 0) {
    card.memory_mib = default_memory_mib;
  } else {
    return FailedPreconditionError(
        "card " + std::to_string(index) + " (" + bdf +
        "): memory size unknown: " + memory_file.string() +
        " does not exist; pass --scan-memory-mib=<MiB per card>");
  }

  const fs::path uuid_file = gcu_dir / "uuid";
  GCUSHARE_ASSIGN_OR_RETURN(std::optional<std::string> uuid,
                            ReadOptionalAttribute(uuid_file));
  card.uuid = uuid && !uuid->empty() ? *uuid : "GCU-PCI-" + bdf;

  card.healthy = Exists(root / ("dev/" + name));
  return card;
}

}  // namespace

ScanCardSource::ScanCardSource(std::string root, uint64_t default_memory_mib)
    : root_(std::move(root)), default_memory_mib_(default_memory_mib) {}

StatusOr<Inventory> ScanCardSource::Discover() {
  const fs::path root(root_);
  const fs::path devices_dir = root / kPciDevices;
  Inventory inventory;

  std::vector<std::string> bdfs;
  if (Exists(devices_dir)) {
    GCUSHARE_ASSIGN_OR_RETURN(bdfs, ListDirectory(devices_dir));
  }
  for (const std::string& bdf : bdfs) {
    const fs::path pci_dir = devices_dir / bdf;
    for (std::string_view driver_dir : kDriverDirs) {
      const fs::path gcu_parent = pci_dir / driver_dir;
      if (!Exists(gcu_parent)) continue;
      GCUSHARE_ASSIGN_OR_RETURN(std::vector<std::string> names,
                                ListDirectory(gcu_parent));
      for (const std::string& name : names) {
        std::optional<uint32_t> index = GcuIndex(name);
        if (!index) continue;
        const fs::path gcu_dir = gcu_parent / name;

        GCUSHARE_ASSIGN_OR_RETURN(
            Card card, ReadCard(root, pci_dir, gcu_dir, bdf, name, *index,
                                default_memory_mib_));
        inventory.cards.push_back(std::move(card));
      }
    }
  }
  if (inventory.cards.empty()) {
    return NotFoundError("no Enflame GCU found under " + devices_dir.string() +
                         " (looked for <pci-address>/enflame/gcuN and "
                         "<pci-address>/zixiao/gcuN)");
  }

  const fs::path control = root / "dev/gcuctl";
  if (Exists(control)) {
    DeviceNode node;
    node.path = "/dev/gcuctl";
    FillDeviceNumbersFromStat(control.string(), node);
    inventory.control_nodes.push_back(std::move(node));
  }

  Status normalized = NormalizeInventory(inventory);
  if (!normalized.ok()) {
    return normalized.WithContext("scan of " + devices_dir.string());
  }
  return inventory;
}

}  // namespace gcushare::efml
