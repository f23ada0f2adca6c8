// The driver's checkpoint (<plugin dir>/checkpoint.json): every claim it
// has started or finished preparing, so that Unprepare works from it alone
// (after a restart, and after the claim was deleted), and the boot id of
// the node when it was written.
//
// File format (JSON, version 1):
//   {"version": 1, "bootId": "<boot id>",
//    "claims": {"<uid>": {"namespace", "name",
//                          "state": "PrepareStarted" | "PrepareCompleted",
//                          "devices": [{"request", "pool", "device",
//                                       "cardIndex", "shareId"?,
//                                       "consumedMillibytes"?, "cdiIds"}],
//                          "cdiSpecFile"}},
//    "checksum": "<16 hex digits>"}
// checksum = FNV-1a-64 of the compact JSON (keys sorted, as nlohmann dumps
// them) of the object without "checksum".
//
// Reboots: /var/run/cdi is a tmpfs, so after a reboot (a boot id other than
// the checkpoint's) the claims' CDI specs are gone. The records are KEPT,
// still hold their cards, and Unprepare still works; the next Prepare of
// such a claim finds its spec missing and rewrites it from the record
// (ClaimPreparer). The checkpoint is then saved with the new boot id.
//
// A corrupt checkpoint (bad JSON, bad checksum, unknown version, hostile
// sizes, a field of the wrong type): LoadCheckpoint renames it aside to
// "<path>.corrupt-<unix seconds>" (never overwritten, never deleted) and
// reports it; the driver then starts with no claims (see claim_preparer.h
// for why it does not refuse to start).
//
// Encode/Decode are pure and thread-safe; Load/Save touch the disk, and two
// savers of the same path must be serialised by the caller. Never throws.
#ifndef GCUSHARE_DRA_DRIVER_CHECKPOINT_H_
#define GCUSHARE_DRA_DRIVER_CHECKPOINT_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "dra-driver/allocated_claim.h"
#include "status/status.h"

namespace gcushare::dra {

inline constexpr int kCheckpointVersion = 1;
// Limits of a decoded checkpoint: the file, claims, devices per claim
// (results per claim are at most 32 in the API) and CDI ids per device.
inline constexpr size_t kMaxCheckpointBytes = size_t{16} << 20;
inline constexpr size_t kMaxCheckpointClaims = 65536;
inline constexpr size_t kMaxCheckpointDevices = 32;
inline constexpr size_t kMaxCheckpointCdiIds = 8;

enum class ClaimState { kPrepareStarted, kPrepareCompleted };

struct CheckpointDevice {
  AllocatedResult result;
  std::vector<std::string> cdi_ids;

  friend bool operator==(const CheckpointDevice&,
                         const CheckpointDevice&) = default;
};

struct CheckpointClaim {
  std::string ns;
  std::string name;
  ClaimState state = ClaimState::kPrepareStarted;
  std::vector<CheckpointDevice> devices;
  std::string cdi_spec_file;  // Informational: Unprepare recomputes it.

  friend bool operator==(const CheckpointClaim&,
                         const CheckpointClaim&) = default;
};

struct Checkpoint {
  std::string boot_id;
  std::map<std::string, CheckpointClaim> claims;  // By claim uid.

  friend bool operator==(const Checkpoint&, const Checkpoint&) = default;
};

// The claim a record describes (ns, name, uid, results; no reservedFor).
AllocatedClaim ToAllocatedClaim(const std::string& uid,
                                const CheckpointClaim& record);

// The file's bytes (pretty-printed, final newline).
std::string EncodeCheckpoint(const Checkpoint& checkpoint);

// DataLoss "<path>: <why>" for anything that is not a checkpoint this code
// wrote: malformed JSON, checksum mismatch, unknown version, too large,
// wrong types, a claim uid that cannot name a file.
StatusOr<Checkpoint> DecodeCheckpoint(std::string_view text,
                                      std::string_view path);

// Encodes and writes atomically with mode 0600.
Status SaveCheckpoint(const Checkpoint& checkpoint, const std::string& path);

struct LoadedCheckpoint {
  Checkpoint checkpoint;        // Empty when none was found or it was bad.
  bool found = false;           // A valid checkpoint was read.
  std::string corrupt_kept_as;  // Where a bad file was moved; "" if none.
  std::string corrupt_reason;   // Why it was refused.
};

// Reads `path`: missing -> empty; valid -> its contents; corrupt -> moved
// aside to "<path>.corrupt-<unix seconds of now>" (".1", ".2"... appended
// when that name exists) and reported. An unreadable file or a failed
// rename is an error (nothing is lost: the file stays where it is).
StatusOr<LoadedCheckpoint> LoadCheckpoint(
    const std::string& path, std::chrono::system_clock::time_point now);

// The boot id from `path` (/proc/sys/kernel/random/boot_id), trimmed;
// an error naming the path when it cannot be read or is empty.
StatusOr<std::string> ReadBootId(const std::string& path);

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_CHECKPOINT_H_
