// ClaimHandler: what the kubelet's DRA calls need from the driver, in our
// own types (the gRPC services in dra_service.h map the v1 and v1beta1
// messages onto it).
//
// Prepare makes each claim's devices usable on this node (a CDI spec the
// runtime applies) and answers the CDI device names; Unprepare undoes it.
// Both are idempotent, take batches, and answer one entry per claim asked
// (keyed by claim UID): a claim's failure is its own entry's error, never
// the whole call's.
//
// Implementations: ClaimPreparer (claim_preparer.h); tests use fakes.
// Thread-safety: implementations are safe for concurrent calls.
#ifndef GCUSHARE_DRA_DRIVER_CLAIM_HANDLER_H_
#define GCUSHARE_DRA_DRIVER_CLAIM_HANDLER_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gcushare::dra {

// A claim as the kubelet names it (all three are required).
struct ClaimRef {
  std::string ns;
  std::string uid;
  std::string name;
};

// One allocated device of a prepared claim, as the kubelet wants it.
struct PreparedDevice {
  std::vector<std::string> request_names;  // Empty: all of the claim's.
  std::string pool_name;
  std::string device_name;
  std::vector<std::string> cdi_device_ids;  // "vendor/class=name".
  std::optional<std::string> share_id;      // The result's shareID.

  friend bool operator==(const PreparedDevice&,
                         const PreparedDevice&) = default;
};

struct PrepareOutcome {
  std::vector<PreparedDevice> devices;
  std::string error;  // Non-empty: failed; devices is empty.
};

class ClaimHandler {
 public:
  virtual ~ClaimHandler() = default;
  // Keyed by claim UID; one entry per claim asked.
  virtual std::map<std::string, PrepareOutcome> Prepare(
      const std::vector<ClaimRef>& claims) = 0;
  // Keyed by claim UID; "" is success. Unknown claims are success.
  virtual std::map<std::string, std::string> Unprepare(
      const std::vector<ClaimRef>& claims) = 0;
};

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_CLAIM_HANDLER_H_
