// DeviceNodes from a table, for tests: Add() a node, Remove() it to
// simulate a card whose node vanished. Thread-safe.
#ifndef GCUSHARE_NRI_PLUGIN_FAKE_DEVICE_NODES_H_
#define GCUSHARE_NRI_PLUGIN_FAKE_DEVICE_NODES_H_

#include <map>
#include <string>
#include <utility>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "nri-plugin/device_nodes.h"

namespace gcushare::nri {

class FakeDeviceNodes : public DeviceNodes {
 public:
  void Add(const std::string& path, DeviceNodeInfo info) {
    base::MutexLock lock(mu_);
    nodes_[path] = std::move(info);
  }
  // /dev/gcu0 ... /dev/gcu<n-1> as character devices 238:<index>.
  void AddCards(int n) {
    for (int i = 0; i < n; ++i) {
      Add("/dev/gcu" + std::to_string(i), {"c", 238, i, 0666});
    }
  }
  void Remove(const std::string& path) {
    base::MutexLock lock(mu_);
    nodes_.erase(path);
  }
  StatusOr<DeviceNodeInfo> Stat(const std::string& path) override {
    base::MutexLock lock(mu_);
    auto it = nodes_.find(path);
    if (it == nodes_.end()) {
      return NotFoundError("device node " + path +
                           " does not exist on this host");
    }
    return it->second;
  }

 private:
  base::Mutex mu_;
  std::map<std::string, DeviceNodeInfo> nodes_ GUARDED_BY(mu_);
};

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_FAKE_DEVICE_NODES_H_
