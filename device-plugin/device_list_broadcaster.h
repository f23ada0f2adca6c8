// DeviceListBroadcaster: the current ListAndWatch device list, and a way for
// every open ListAndWatch stream to wait for the next one.
//
// The plugin publishes the full list on every change (kubelet expects the
// whole list each time, never a delta); a stream remembers the version it
// sent last and waits for a newer one (base/latest_value.h).
//
// Ownership: lists are shared, immutable. Thread-safety: thread-safe.
#ifndef GCUSHARE_DEVICE_PLUGIN_DEVICE_LIST_BROADCASTER_H_
#define GCUSHARE_DEVICE_PLUGIN_DEVICE_LIST_BROADCASTER_H_

#include "base/latest_value.h"
#include "device-plugin/api/api.pb.h"

namespace gcushare::deviceplugin {

using DeviceListBroadcaster = base::LatestValue<v1beta1::ListAndWatchResponse>;

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_DEVICE_LIST_BROADCASTER_H_
