// Which pods the device plugin owes the mark gcu-device-assigned="true".
//
// Allocate marks a pod right after it answers kubelet (allocator.h). A
// plugin killed between that answer and the mark loses it, and kubelet never
// calls Allocate again for that admission. After a restart the plugin
// finishes such marks: a pod is owed one when it
//   - is bound to this node (spec.nodeName) and not being deleted,
//   - carries the extender's assignment (gcu-device-id) still marked
//     gcu-device-assigned="false",
//   - asks for enflame.com/gcu-memory (the resource this plugin allocates;
//     whole-card pods are the NRI plugin's to mark), and
//   - has started: kubelet admits a pod (calling Allocate for every container
//     that needs a device) before it starts any of its containers, so a
//     container (init or app) that runs or ran, or phase Running/Succeeded,
//     means the card was handed over.
// A Pending pod whose containers have not started is never owed a mark: its
// Allocate may not have happened yet (marking it would tell the extender the
// card was handed over when it was not).
//
// Pure function over pod JSON; thread-safe; never throws.
#ifndef GCUSHARE_DEVICE_PLUGIN_OWED_MARK_H_
#define GCUSHARE_DEVICE_PLUGIN_OWED_MARK_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace gcushare::deviceplugin {

struct OwedMark {
  std::string namespace_name;
  std::string name;
  std::string uid;

  friend bool operator==(const OwedMark&, const OwedMark&) = default;
};

// The mark `pod` is owed by the device plugin of `node`, or std::nullopt.
std::optional<OwedMark> FindOwedMark(const nlohmann::json& pod,
                                     std::string_view node);

// Whether a container of `pod` (init or app) runs or ran, or its phase says
// so (Running, Succeeded).
bool PodStarted(const nlohmann::json& pod);

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_OWED_MARK_H_
