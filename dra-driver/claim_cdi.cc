#include "dra-driver/claim_cdi.h"

#include <errno.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <optional>

#include "cdi/names.h"
#include "cdi/validator.h"
#include "cdi/writer.h"
#include "contract/container_env.h"
#include "contract/names.h"
#include "dra-driver/memory_quantity.h"
#include "dra-driver/share_ledger.h"
#include "fs/atomic_file.h"
#include "fs/make_dirs.h"

namespace gcushare::dra {
namespace {

const efml::Card* FindCard(const efml::Inventory& inventory, uint32_t index) {
  for (const efml::Card& card : inventory.cards) {
    if (card.index == index) return &card;
  }
  return nullptr;
}

cdi::DeviceNode CardNode(const efml::Card& card) {
  cdi::DeviceNode node;
  node.path = efml::DefaultDevicePath(card.index);
  if (card.device.path != node.path) node.host_path = card.device.path;
  node.type = "c";
  if (card.device.major && card.device.minor) {
    node.major = *card.device.major;
    node.minor = *card.device.minor;
  }
  return node;
}

cdi::DeviceNode ControlNode(const efml::DeviceNode& control) {
  cdi::DeviceNode node;
  node.path = control.path;
  node.type = "c";
  if (control.major && control.minor) {
    node.major = *control.major;
    node.minor = *control.minor;
  }
  return node;
}

}  // namespace

std::string ClaimCdiDeviceName(std::string_view claim_uid,
                               const AllocatedResult& result) {
  std::string name =
      std::string(claim_uid) + "-gcu-" + std::to_string(result.card_index);
  if (result.share_id) name += "-" + *result.share_id;
  return name;
}

std::string ClaimCdiDeviceId(std::string_view claim_uid,
                             const AllocatedResult& result) {
  return cdi::QualifiedName(contract::kDraCdiKind,
                            ClaimCdiDeviceName(claim_uid, result));
}

std::string ClaimSpecFileName(std::string_view claim_uid) {
  std::string kind(contract::kDraCdiKind);
  std::replace(kind.begin(), kind.end(), '/', '-');
  return kind + "_" + std::string(claim_uid) + ".json";
}

std::string ClaimSpecPath(std::string_view cdi_dir,
                          std::string_view claim_uid) {
  return std::string(cdi_dir) + "/" + ClaimSpecFileName(claim_uid);
}

Status CheckClaimUid(std::string_view claim_uid) {
  if (claim_uid.empty() || claim_uid.size() > 128) {
    return InvalidArgumentError("claim uid must have 1 to 128 characters");
  }
  Status name = cdi::ValidateDeviceName(claim_uid);
  if (!name.ok()) {
    return InvalidArgumentError("claim uid \"" + std::string(claim_uid) +
                                "\": " + name.message());
  }
  return OkStatus();
}

StatusOr<cdi::Spec> BuildClaimSpec(const AllocatedClaim& claim,
                                   const efml::Inventory& inventory,
                                   contract::MemoryUnit unit) {
  const std::string who = DescribeClaim(claim.ns, claim.name, claim.uid);
  if (claim.results.empty()) {
    return InvalidArgumentError(who + ": no results of driver " +
                                std::string(contract::kDraDriverName));
  }
  cdi::Spec spec;
  spec.cdi_version = std::string(kClaimCdiVersion);
  spec.kind = std::string(contract::kDraCdiKind);
  for (const efml::DeviceNode& control : inventory.control_nodes) {
    spec.container_edits.device_nodes.push_back(ControlNode(control));
  }

  // Per request: where its first device is, and its env.
  struct RequestEnv {
    size_t first_device = 0;
    contract::ContainerEnv env;
    bool partial = false;  // A result holds less than its whole card.
    uint64_t consumed_millibytes = 0;
  };
  std::map<std::string, RequestEnv> requests;
  std::vector<std::string> order;
  for (const AllocatedResult& result : claim.results) {
    const efml::Card* card = FindCard(inventory, result.card_index);
    if (card == nullptr) {
      return InvalidArgumentError(who + ": " + result.device + ": no card " +
                                  std::to_string(result.card_index) +
                                  " on this node");
    }
    const uint64_t total = MillibytesOfMib(card->memory_mib);
    const std::string base = BaseRequestName(result.request);
    auto [it, added] = requests.try_emplace(base);
    RequestEnv& request = it->second;
    if (added) {
      order.push_back(base);
      request.first_device = spec.devices.size();
      request.env.memory_total_mib = card->memory_mib;
      request.env.unit = unit;
    }
    if (std::find(request.env.cards.begin(), request.env.cards.end(),
                  card->index) == request.env.cards.end()) {
      request.env.cards.push_back(card->index);
    }
    request.partial = request.partial || (result.consumed_millibytes &&
                                          *result.consumed_millibytes < total);
    request.consumed_millibytes += result.consumed_millibytes.value_or(total);

    cdi::Device device;
    device.name = ClaimCdiDeviceName(claim.uid, result);
    device.container_edits.device_nodes.push_back(CardNode(*card));
    spec.devices.push_back(std::move(device));
  }
  for (const std::string& name : order) {
    RequestEnv& request = requests[name];
    if (request.partial) {
      request.env.memory_limit_mib =
          MibOfMillibytes(request.consumed_millibytes);
    }
    std::vector<std::string>& env =
        spec.devices[request.first_device].container_edits.env;
    for (const auto& [key, value] : contract::EncodeContainerEnv(request.env)) {
      std::string entry = key;
      entry += '=';
      entry += value;
      env.push_back(std::move(entry));
    }
  }
  Status valid = cdi::ValidateSpec(cdi::ToJson(spec));
  if (!valid.ok()) {
    return InvalidArgumentError(who + ": CDI spec: " + valid.message());
  }
  return spec;
}

StatusOr<std::string> WriteClaimSpec(const cdi::Spec& spec,
                                     std::string_view cdi_dir,
                                     std::string_view claim_uid) {
  Status uid = CheckClaimUid(claim_uid);
  if (!uid.ok()) return uid;
  Status valid = cdi::ValidateSpec(cdi::ToJson(spec));
  if (!valid.ok()) {
    return InvalidArgumentError("CDI spec of claim uid " +
                                std::string(claim_uid) + ": " +
                                valid.message());
  }
  Status dir = fs::MakeDirectories(std::string(cdi_dir), 0755);
  if (!dir.ok()) return dir;
  const std::string path = ClaimSpecPath(cdi_dir, claim_uid);
  StatusOr<fs::WriteOutcome> written = fs::WriteFileAtomically(
      path, cdi::SerializeSpec(spec, cdi::Format::kJson), {.mode = 0644});
  if (!written.ok()) return written.status();
  return path;
}

Status RemoveClaimSpec(std::string_view cdi_dir, std::string_view claim_uid) {
  Status uid = CheckClaimUid(claim_uid);
  if (!uid.ok()) return uid;
  const std::string path = ClaimSpecPath(cdi_dir, claim_uid);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return ErrnoToStatus(errno, "cannot remove " + path);
  }
  return OkStatus();
}

}  // namespace gcushare::dra
