// bazel run -c opt //device-plugin:benchmark
//
// Prints, for card counts x memory units: the device IDs and the encoded
// ListAndWatch message (bytes, build + encode time, and the mode auto picks),
// then the Allocate latency (p50/p99) of the in-process plugin called by the
// stand-in kubelet over gRPC, with pods in the stand-in API server.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "contract/memory_unit.h"
#include "device-plugin/advertise_mode.h"
#include "device-plugin/device_ids.h"
#include "device-plugin/testing/plugin_fixture.h"

namespace gcushare::deviceplugin {
namespace {

using Clock = std::chrono::steady_clock;

efml::Inventory Cards(uint32_t count, uint64_t mib) {
  efml::Inventory inventory;
  for (uint32_t i = 0; i < count; ++i) {
    efml::Card card;
    card.index = i;
    card.uuid = "GCU-" + std::to_string(i);
    card.memory_mib = mib;
    card.device.path = efml::DefaultDevicePath(i);
    card.numa_node = static_cast<int>(i / 4);
    inventory.cards.push_back(card);
  }
  return inventory;
}

double Millis(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

void ListSizes() {
  std::printf(
      "ListAndWatch message per card count x unit (NUMA set, all "
      "healthy)\n");
  std::printf("%6s %6s %7s %10s %12s %10s %10s  %s\n", "cards", "GiB", "unit",
              "IDs", "bytes", "build ms", "encode ms", "auto mode");
  for (uint32_t cards : {1u, 8u, 16u}) {
    for (uint64_t gib : {16u, 96u}) {
      for (const char* text : {"1", "0.1", "0.01", "0.001"}) {
        contract::MemoryUnit unit = *contract::MemoryUnit::Parse(text);
        efml::Inventory inventory = Cards(cards, gib * 1024);
        auto decision = DecideMode(inventory, unit, AdvertiseModeFlag::kAuto);
        Clock::time_point t0 = Clock::now();
        v1beta1::ListAndWatchResponse list = BuildDeviceList(inventory, unit);
        Clock::time_point t1 = Clock::now();
        std::string bytes;
        list.SerializeToString(&bytes);
        Clock::time_point t2 = Clock::now();
        std::printf("%6u %6lu %7s %10d %12zu %10.2f %10.2f  %s%s\n", cards,
                    static_cast<unsigned long>(gib), text, list.devices_size(),
                    bytes.size(), Millis(t1 - t0), Millis(t2 - t1),
                    std::string(AdvertiseModeName(decision->mode)).c_str(),
                    bytes.size() > kKubeletMaxMessageBytes
                        ? " (over kubelet's 4 MiB)"
                        : "");
      }
    }
  }
}

void AllocateLatency(int pods) {
  testing::FixtureOptions options;
  options.cards_yaml = testing::CardsYaml(8, 98304);  // 8 x 96 GiB, unit 1.
  testing::PluginFixture f(options);
  if (!f.StartPlugin().ok() || !f.WaitForDevices(8 * 96)) {
    std::printf("plugin did not start\n");
    return;
  }
  for (int i = 0; i < pods; ++i) {
    f.CreateBoundPod({.name = "bench-" + std::to_string(i),
                      .containers = {{"main", 1}},
                      .card = static_cast<uint32_t>(i % 8),
                      .assign_time_ns = i + 1});
  }
  // Let the informer catch up so that timings measure the common path.
  while (f.plugin().pod_source()->Known().size() < static_cast<size_t>(pods)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::vector<double> ms;
  for (int i = 0; i < pods; ++i) {
    Clock::time_point t0 = Clock::now();
    auto r = f.Allocate(1);
    ms.push_back(Millis(Clock::now() - t0));
    if (!r.ok()) {
      std::printf("Allocate failed: %s\n", r.status().ToString().c_str());
      return;
    }
  }
  std::sort(ms.begin(), ms.end());
  auto pct = [&](double p) {
    return ms[std::min(ms.size() - 1, static_cast<size_t>(p * ms.size()))];
  };
  std::printf(
      "\nAllocate (kubelet GetPreferredAllocation + Allocate over gRPC, pod "
      "match among %d pods, annotation patch): %d calls, p50 %.2f ms, p99 "
      "%.2f ms, max %.2f ms\n",
      pods, pods, pct(0.50), pct(0.99), ms.back());
}

}  // namespace
}  // namespace gcushare::deviceplugin

int main() {
  spdlog::set_level(spdlog::level::warn);
  gcushare::deviceplugin::ListSizes();
  gcushare::deviceplugin::AllocateLatency(300);
  return 0;
}
