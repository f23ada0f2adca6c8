#include "dra-driver/checkpoint.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "dra-driver/claim_cdi.h"
#include "dra-driver/device_name.h"
#include "fs/atomic_file.h"
#include "json/bounded_parse.h"

namespace gcushare::dra {
namespace {

using nlohmann::json;

constexpr std::string_view kStarted = "PrepareStarted";
constexpr std::string_view kCompleted = "PrepareCompleted";

std::string Canonical(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string Fnv1a64Hex(std::string_view bytes) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  char out[17];
  std::snprintf(out, sizeof(out), "%016llx",
                static_cast<unsigned long long>(hash));
  return out;
}

json Body(const Checkpoint& checkpoint) {
  json claims = json::object();
  for (const auto& [uid, record] : checkpoint.claims) {
    json devices = json::array();
    for (const CheckpointDevice& device : record.devices) {
      json entry = {{"request", device.result.request},
                    {"pool", device.result.pool},
                    {"device", device.result.device},
                    {"cardIndex", device.result.card_index},
                    {"cdiIds", device.cdi_ids}};
      if (device.result.share_id) entry["shareId"] = *device.result.share_id;
      if (device.result.consumed_millibytes) {
        entry["consumedMillibytes"] = *device.result.consumed_millibytes;
      }
      devices.push_back(std::move(entry));
    }
    claims[uid] = {
        {"namespace", record.ns},
        {"name", record.name},
        {"state",
         record.state == ClaimState::kPrepareCompleted ? kCompleted : kStarted},
        {"devices", std::move(devices)},
        {"cdiSpecFile", record.cdi_spec_file}};
  }
  return {{"version", kCheckpointVersion},
          {"bootId", checkpoint.boot_id},
          {"claims", std::move(claims)}};
}

// Field readers: DataLoss naming the field.
Status Bad(std::string_view why) { return DataLossError(std::string(why)); }

StatusOr<std::string> String(const json& object, const char* key,
                             const std::string& where, bool optional = false) {
  auto it = object.find(key);
  if (it == object.end()) {
    if (optional) return std::string();
    return Bad(where + "." + key + " is missing");
  }
  if (!it->is_string()) return Bad(where + "." + key + " is not a string");
  if (it->get_ref<const std::string&>().size() > 1024) {
    return Bad(where + "." + key + " is longer than 1024 characters");
  }
  return it->get<std::string>();
}

StatusOr<CheckpointDevice> DecodeDevice(const json& entry,
                                        const std::string& where) {
  if (!entry.is_object()) return Bad(where + " is not an object");
  CheckpointDevice device;
  AllocatedResult& result = device.result;
  for (auto [key, field] :
       {std::pair{"request", &result.request}, std::pair{"pool", &result.pool},
        std::pair{"device", &result.device}}) {
    StatusOr<std::string> value = String(entry, key, where);
    if (!value.ok()) return value.status();
    *field = *value;
  }
  StatusOr<uint32_t> index = ParseDeviceName(result.device);
  if (!index.ok()) return Bad(where + ".device: " + index.status().message());
  auto card = entry.find("cardIndex");
  if (card == entry.end() || !card->is_number_unsigned() ||
      card->get<uint64_t>() != *index) {
    return Bad(where + ".cardIndex does not match the device name");
  }
  result.card_index = *index;
  if (entry.contains("shareId")) {
    StatusOr<std::string> share = String(entry, "shareId", where);
    if (!share.ok()) return share.status();
    result.share_id = *share;
  }
  if (entry.contains("consumedMillibytes")) {
    const json& consumed = entry.at("consumedMillibytes");
    if (!consumed.is_number_unsigned() &&
        !(consumed.is_number_integer() && consumed.get<int64_t>() >= 0)) {
      return Bad(where + ".consumedMillibytes is not a non-negative integer");
    }
    result.consumed_millibytes = consumed.get<uint64_t>();
  }
  auto ids = entry.find("cdiIds");
  if (ids == entry.end() || !ids->is_array() ||
      ids->size() > kMaxCheckpointCdiIds) {
    return Bad(where + ".cdiIds is not a list of at most 8 strings");
  }
  for (const json& id : *ids) {
    if (!id.is_string() || id.get_ref<const std::string&>().size() > 1024) {
      return Bad(where + ".cdiIds has an entry that is not a short string");
    }
    device.cdi_ids.push_back(id.get<std::string>());
  }
  return device;
}

StatusOr<Checkpoint> DecodeBody(const json& root) {
  if (!root.is_object()) return Bad("not a JSON object");
  auto version = root.find("version");
  if (version == root.end() || !version->is_number_integer()) {
    return Bad("version is missing");
  }
  if (version->get<int64_t>() != kCheckpointVersion) {
    return Bad("unknown version " + std::to_string(version->get<int64_t>()) +
               " (this driver reads version " +
               std::to_string(kCheckpointVersion) + ")");
  }
  Checkpoint checkpoint;
  StatusOr<std::string> boot = String(root, "bootId", "checkpoint");
  if (!boot.ok()) return boot.status();
  checkpoint.boot_id = *boot;
  auto claims = root.find("claims");
  if (claims == root.end() || !claims->is_object()) {
    return Bad("claims is not a map");
  }
  if (claims->size() > kMaxCheckpointClaims) {
    return Bad("claims has " + std::to_string(claims->size()) +
               " entries, more than " + std::to_string(kMaxCheckpointClaims));
  }
  for (const auto& [uid, entry] : claims->items()) {
    const std::string where = "claims[" + uid + "]";
    Status valid_uid = CheckClaimUid(uid);
    if (!valid_uid.ok()) return Bad(where + ": " + valid_uid.message());
    if (!entry.is_object()) return Bad(where + " is not an object");
    CheckpointClaim record;
    StatusOr<std::string> ns = String(entry, "namespace", where);
    if (!ns.ok()) return ns.status();
    record.ns = *ns;
    StatusOr<std::string> name = String(entry, "name", where);
    if (!name.ok()) return name.status();
    record.name = *name;
    StatusOr<std::string> state = String(entry, "state", where);
    if (!state.ok()) return state.status();
    if (*state == kStarted) {
      record.state = ClaimState::kPrepareStarted;
    } else if (*state == kCompleted) {
      record.state = ClaimState::kPrepareCompleted;
    } else {
      return Bad(where + ".state \"" + *state + "\" is not " +
                 std::string(kStarted) + " or " + std::string(kCompleted));
    }
    StatusOr<std::string> file =
        String(entry, "cdiSpecFile", where, /*optional=*/true);
    if (!file.ok()) return file.status();
    record.cdi_spec_file = *file;
    auto devices = entry.find("devices");
    if (devices == entry.end() || !devices->is_array() ||
        devices->size() > kMaxCheckpointDevices) {
      return Bad(where + ".devices is not a list of at most 32 entries");
    }
    for (size_t i = 0; i < devices->size(); ++i) {
      StatusOr<CheckpointDevice> device = DecodeDevice(
          (*devices)[i], where + ".devices[" + std::to_string(i) + "]");
      if (!device.ok()) return device.status();
      record.devices.push_back(*std::move(device));
    }
    checkpoint.claims.emplace(uid, std::move(record));
  }
  return checkpoint;
}

StatusOr<std::string> ReadSmallFile(const std::string& path, size_t limit) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoToStatus(errno, path);
  std::string out;
  char buffer[65536];
  while (true) {
    ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0) {
      if (errno == EINTR) continue;
      int saved = errno;
      ::close(fd);
      return ErrnoToStatus(saved, path);
    }
    if (n == 0) break;
    out.append(buffer, static_cast<size_t>(n));
    if (out.size() > limit) {
      ::close(fd);
      return DataLossError(path + ": larger than " + std::to_string(limit) +
                           " bytes");
    }
  }
  ::close(fd);
  return out;
}

}  // namespace

AllocatedClaim ToAllocatedClaim(const std::string& uid,
                                const CheckpointClaim& record) {
  AllocatedClaim claim;
  claim.ns = record.ns;
  claim.name = record.name;
  claim.uid = uid;
  for (const CheckpointDevice& device : record.devices) {
    claim.results.push_back(device.result);
  }
  return claim;
}

std::string EncodeCheckpoint(const Checkpoint& checkpoint) {
  json root = Body(checkpoint);
  const std::string sum = Fnv1a64Hex(Canonical(root));
  root["checksum"] = sum;
  return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

StatusOr<Checkpoint> DecodeCheckpoint(std::string_view text,
                                      std::string_view path) {
  const std::string where(path);
  if (text.size() > kMaxCheckpointBytes) {
    return DataLossError(where + ": larger than " +
                         std::to_string(kMaxCheckpointBytes) + " bytes");
  }
  StatusOr<json> parsed = gcushare::json::ParseJson(text, where);
  if (!parsed.ok()) return DataLossError(parsed.status().message());
  try {
    json root = *std::move(parsed);
    if (!root.is_object()) return DataLossError(where + ": not a JSON object");
    auto sum = root.find("checksum");
    if (sum == root.end() || !sum->is_string()) {
      return DataLossError(where + ": checksum is missing");
    }
    const std::string want = sum->get<std::string>();
    root.erase("checksum");
    const std::string got = Fnv1a64Hex(Canonical(root));
    if (want != got) {
      return DataLossError(where + ": checksum " + want +
                           " does not match the contents (" + got +
                           "): the file was damaged or edited");
    }
    StatusOr<Checkpoint> decoded = DecodeBody(root);
    if (!decoded.ok()) {
      return DataLossError(where + ": " + decoded.status().message());
    }
    return decoded;
  } catch (const std::exception& e) {
    return DataLossError(where + ": " + e.what());
  }
}

Status SaveCheckpoint(const Checkpoint& checkpoint, const std::string& path) {
  StatusOr<fs::WriteOutcome> written = fs::WriteFileAtomically(
      path, EncodeCheckpoint(checkpoint), {.mode = 0600});
  return written.ok() ? OkStatus() : written.status();
}

StatusOr<LoadedCheckpoint> LoadCheckpoint(
    const std::string& path, std::chrono::system_clock::time_point now) {
  LoadedCheckpoint loaded;
  StatusOr<std::string> text = ReadSmallFile(path, kMaxCheckpointBytes);
  if (!text.ok() && text.status().code() == StatusCode::kNotFound) {
    return loaded;
  }
  StatusOr<Checkpoint> decoded = text.ok()
                                     ? DecodeCheckpoint(*text, path)
                                     : StatusOr<Checkpoint>(text.status());
  if (decoded.ok()) {
    loaded.checkpoint = *std::move(decoded);
    loaded.found = true;
    return loaded;
  }
  if (decoded.status().code() != StatusCode::kDataLoss) {
    return decoded.status();  // Unreadable: leave it where it is.
  }
  const long long seconds =
      std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch())
          .count();
  std::string aside = path + ".corrupt-" + std::to_string(seconds);
  struct stat st;
  for (int n = 1; ::lstat(aside.c_str(), &st) == 0; ++n) {
    aside =
        path + ".corrupt-" + std::to_string(seconds) + "." + std::to_string(n);
  }
  if (::rename(path.c_str(), aside.c_str()) != 0) {
    return ErrnoToStatus(errno, "cannot move the corrupt checkpoint " + path +
                                    " aside to " + aside)
        .WithContext(decoded.status().message());
  }
  loaded.corrupt_kept_as = aside;
  loaded.corrupt_reason = decoded.status().message();
  return loaded;
}

StatusOr<std::string> ReadBootId(const std::string& path) {
  StatusOr<std::string> text = ReadSmallFile(path, 4096);
  if (!text.ok()) {
    return text.status().WithContext("cannot read the boot id");
  }
  std::string id = *text;
  while (!id.empty() && std::isspace(static_cast<unsigned char>(id.back()))) {
    id.pop_back();
  }
  if (id.empty()) return FailedPreconditionError(path + ": empty boot id");
  return id;
}

}  // namespace gcushare::dra
