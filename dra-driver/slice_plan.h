// Plans one sync of the node's pool: given the desired slices (from
// slice_builder.h) and the slices the API server holds for this node and
// driver, which to delete, update and create, and the pool generation they
// all carry afterwards. The rules follow the upstream resourceslice
// controller (syncPool), adapted to node-named slices:
//   - a stored slice of another pool, or of a generation below the highest
//     stored one, is obsolete (deleted);
//   - a stored slice matches the desired slice that holds its first device
//     (an empty stored slice matches an empty desired one); a second match
//     for the same desired slice is obsolete;
//   - the generation is the highest stored one, bumped by one when any
//     desired slice must be created or any matched slice's content changed
//     (SameSliceContent); when bumped, every matched slice is updated so
//     the whole pool carries the new generation (consumers use only the
//     highest); a pool published for the first time starts at 1;
//   - updates keep the stored metadata (name, uid, resourceVersion: a PUT
//     with a stale resourceVersion fails with 409 Conflict) and take the
//     desired spec and owner references.
//
// Pure; thread-safe.
#ifndef GCUSHARE_DRA_DRIVER_SLICE_PLAN_H_
#define GCUSHARE_DRA_DRIVER_SLICE_PLAN_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

namespace gcushare::dra {

struct SlicePlan {
  int64_t generation = 0;
  std::vector<nlohmann::json> deletes;  // Stored slices (name, uid).
  std::vector<nlohmann::json> updates;  // Whole objects to PUT.
  std::vector<nlohmann::json> creates;  // Whole objects to POST.

  bool empty() const {
    return deletes.empty() && updates.empty() && creates.empty();
  }
};

// `desired`: slices as BuildSlices() makes them (any generation);
// `stored`: the server's slices with spec.nodeName = this node and
// spec.driver = ours; `pool_name`: the node name.
SlicePlan PlanSlices(const std::vector<nlohmann::json>& desired,
                     const std::vector<nlohmann::json>& stored,
                     std::string_view pool_name);

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_SLICE_PLAN_H_
