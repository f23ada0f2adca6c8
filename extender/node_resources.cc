#include "extender/node_resources.h"

#include <algorithm>
#include <initializer_list>
#include <string_view>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "contract/quantity.h"
#include "kube/json_fields.h"

namespace gcushare::extender {

using placement::HostRequest;

namespace {

// The largest CPU (millicores) or memory (bytes) one quantity may hold: 2^50
// (1 PiB of memory; 1.1e12 cores). Far above any node, and low enough that
// a node's sum of such requests cannot overflow int64 below 8,192 pods.
// A larger quantity ("10E") is InvalidArgument: such a pod fits no node
// (kubelet refuses it), and a wrapped or negative figure would free
// capacity that is not there.
constexpr uint64_t kMaxHostQuantity = uint64_t{1} << 50;

Status LargerThanAnyNode(std::string_view text, std::string_view unit) {
  return InvalidArgumentError("quantity \"" + std::string(text) +
                              "\" is larger than any node (at most 2^50 " +
                              std::string(unit) + ")");
}

// The milli-units of `text` rounded up (contract::ParseMilliQuantity), an
// error quoting `text` as the user wrote it.
StatusOr<int64_t> MilliRoundedUp(std::string_view text, std::string_view unit) {
  StatusOr<contract::MilliQuantity> milli = contract::ParseMilliQuantity(text);
  if (!milli.ok()) {
    if (milli.status().code() == StatusCode::kOutOfRange) {
      return LargerThanAnyNode(text, unit);
    }
    return milli.status();
  }
  return milli->milli;
}

// CPU and memory in `list` (an object of quantities); unset when absent.
StatusOr<HostFigures> ReadList(const nlohmann::json& list) {
  HostFigures out;
  if (!list.is_object()) return out;
  auto cpu = list.find("cpu");
  if (cpu != list.end()) {
    if (!cpu->is_string()) return InvalidArgumentError("cpu is not a string");
    auto milli = ParseHostCpuMilli(cpu->get_ref<const std::string&>());
    if (!milli.ok()) return milli.status().WithContext("cpu");
    out.cpu_milli = *milli;
  }
  auto memory = list.find("memory");
  if (memory != list.end()) {
    if (!memory->is_string()) {
      return InvalidArgumentError("memory is not a string");
    }
    auto bytes = ParseHostBytes(memory->get_ref<const std::string&>());
    if (!bytes.ok()) return bytes.status().WithContext("memory");
    out.memory = *bytes;
  }
  return out;
}

// The object at `value`, or an empty one (absent, like a missing list).
const nlohmann::json& ObjectOrEmpty(const nlohmann::json* value) {
  static const nlohmann::json* const kEmpty =
      new nlohmann::json(nlohmann::json::object());
  return value != nullptr ? *value : *kEmpty;
}

HostRequest Max(const HostRequest& a, const HostRequest& b) {
  return {std::max(a.cpu_milli, b.cpu_milli), std::max(a.memory, b.memory)};
}
HostRequest Sum(const HostRequest& a, const HostRequest& b) {
  return {a.cpu_milli + b.cpu_milli, a.memory + b.memory};
}

// The string at `path` in `object` as a view into it; "" when absent or
// not a string (as kube::StringAt).
std::string_view StringViewAt(const nlohmann::json& object,
                              std::initializer_list<std::string_view> path) {
  const nlohmann::json* value = kube::FindPath(object, path);
  if (value == nullptr || !value->is_string()) return {};
  return value->get_ref<const std::string&>();
}

}  // namespace

StatusOr<int64_t> ParseHostCpuMilli(std::string_view text) {
  StatusOr<int64_t> milli = MilliRoundedUp(text, "millicores");
  if (!milli.ok()) return milli.status();
  if (static_cast<uint64_t>(*milli) > kMaxHostQuantity) {
    return LargerThanAnyNode(text, "millicores");
  }
  return *milli;
}

StatusOr<int64_t> ParseHostBytes(std::string_view text) {
  StatusOr<int64_t> milli = MilliRoundedUp(text, "bytes");
  if (!milli.ok()) return milli.status();
  const int64_t bytes = *milli / 1000 + (*milli % 1000 != 0 ? 1 : 0);
  if (static_cast<uint64_t>(bytes) > kMaxHostQuantity) {
    return LargerThanAnyNode(text, "bytes");
  }
  return bytes;
}

void PodHostSum::AddContainer(const HostFigures& requests,
                              const HostFigures& limits, bool init,
                              bool sidecar) {
  const HostRequest request = {
      requests.cpu_milli.has_value() ? *requests.cpu_milli
                                     : limits.cpu_milli.value_or(0),
      requests.memory.has_value() ? *requests.memory
                                  : limits.memory.value_or(0)};
  if (!init) {
    apps_ = Sum(apps_, request);
  } else if (sidecar) {
    sidecars_ = Sum(sidecars_, request);
  } else {
    init_peak_ = Max(init_peak_, Sum(sidecars_, request));
  }
}

HostRequest PodHostSum::Total() const {
  return Max(Sum(apps_, sidecars_), init_peak_);
}

StatusOr<HostRequest> PodHostRequest(const nlohmann::json& pod) {
  auto spec = pod.find("spec");
  if (spec == pod.end() || !spec->is_object()) return HostRequest{};
  PodHostSum sum;
  for (const char* list : {"initContainers", "containers"}) {
    auto it = spec->find(list);
    if (it == spec->end() || !it->is_array()) continue;
    const bool init = std::string_view(list) == "initContainers";
    for (const nlohmann::json& container : *it) {
      auto requests = ReadList(
          ObjectOrEmpty(kube::FindPath(container, {"resources", "requests"})));
      auto limits = ReadList(
          ObjectOrEmpty(kube::FindPath(container, {"resources", "limits"})));
      for (const Status& status : {requests.status(), limits.status()}) {
        if (!status.ok()) {
          return status.WithContext(
              "container \"" + container.value("name", std::string()) + "\"");
        }
      }
      sum.AddContainer(
          *requests, *limits, init,
          init && StringViewAt(container, {"restartPolicy"}) == "Always");
    }
  }
  return sum.Total();
}

StatusOr<NodeResources::Uid> NodeResources::ParseUid(std::string_view text) {
  Uid uid{0, 0};
  int digits = 0;
  for (char c : text) {
    if (c == '-') continue;
    int value;
    if (c >= '0' && c <= '9') {
      value = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      value = c - 'a' + 10;
    } else {
      digits = -1;
      break;
    }
    if (digits >= 32) {
      digits = -1;
      break;
    }
    uid[digits / 16] = (uid[digits / 16] << 4) | static_cast<uint64_t>(value);
    ++digits;
  }
  if (digits != 32) {
    return InvalidArgumentError("uid \"" + std::string(text) +
                                "\" is not a UUID");
  }
  return uid;
}

uint32_t NodeResources::IndexLocked(std::string_view name) {
  if (const Node* node = index_.Find(name)) return node->index;
  const uint32_t index = static_cast<uint32_t>(nodes_.size());
  Node& node = nodes_.emplace_back();
  node.name = std::string(name);
  node.index = index;
  index_.Insert(node.name, &node);
  return index;
}

Status NodeResources::UpsertNode(const nlohmann::json& node) {
  const std::string name = kube::NameOf(node);
  if (name.empty()) return InvalidArgumentError("node without a name");
  auto allocatable =
      ReadList(ObjectOrEmpty(kube::FindPath(node, {"status", "allocatable"})));
  if (!allocatable.ok()) {
    return allocatable.status().WithContext("node " + name + " allocatable");
  }
  base::MutexLock lock(mu_);
  Node& entry = nodes_[IndexLocked(name)];
  entry.known = true;
  entry.allocatable = {allocatable->cpu_milli.value_or(0),
                       allocatable->memory.value_or(0)};
  return OkStatus();
}

void NodeResources::RemoveNode(std::string_view name) {
  base::MutexLock lock(mu_);
  if (Node* node = index_.Find(name)) node->known = false;
}

void NodeResources::RemoveLocked(const Uid& uid) {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return;
  Node& node = nodes_[it->second.node];
  node.requested.cpu_milli -= it->second.cpu_milli;
  node.requested.memory -= it->second.memory;
  pods_.erase(it);
}

Status NodeResources::UpsertPod(const nlohmann::json& pod) {
  return Upsert(pod, PodHostRequest(pod), false);
}

Status NodeResources::UpsertPod(const nlohmann::json& pod,
                                const StatusOr<HostRequest>& request) {
  return Upsert(pod, request, false);
}

Status NodeResources::UpsertUnstoredPod(const nlohmann::json& pod) {
  return Upsert(pod, PodHostRequest(pod), true);
}

Status NodeResources::UpsertUnstoredPod(const nlohmann::json& pod,
                                        const StatusOr<HostRequest>& request) {
  return Upsert(pod, request, true);
}

void NodeResources::ReservePods(size_t pods) {
  base::MutexLock lock(mu_);
  pods_.reserve(pods);
}

void NodeResources::BeginSweep() {
  base::MutexLock lock(mu_);
  ++sweep_;
}

void NodeResources::EndSweep() {
  base::MutexLock lock(mu_);
  std::vector<Uid> gone;
  for (const auto& [uid, pod] : pods_) {
    if (pod.seen != 0 && pod.seen != sweep_) gone.push_back(uid);
  }
  for (const Uid& uid : gone) RemoveLocked(uid);
}

Status NodeResources::Upsert(const nlohmann::json& pod,
                             const StatusOr<HostRequest>& request,
                             bool unstored) {
  auto uid = ParseUid(StringViewAt(pod, {"metadata", "uid"}));
  if (!uid.ok()) return uid.status();
  if (!request.ok()) return request.status();
  // Views into `pod`, which outlives the call: no copies per pod.
  return UpsertFigures(*uid, StringViewAt(pod, {"spec", "nodeName"}),
                       StringViewAt(pod, {"status", "phase"}), *request,
                       unstored);
}

Status NodeResources::UpsertUnstoredPod(std::string_view uid,
                                        std::string_view node,
                                        std::string_view phase,
                                        const HostRequest& request) {
  auto parsed = ParseUid(uid);
  if (!parsed.ok()) return parsed.status();
  return UpsertFigures(*parsed, node, phase, request, true);
}

Status NodeResources::UpsertPod(std::string_view uid, std::string_view node,
                                std::string_view phase,
                                const HostRequest& request) {
  auto parsed = ParseUid(uid);
  if (!parsed.ok()) return parsed.status();
  return UpsertFigures(*parsed, node, phase, request, false);
}

Status NodeResources::UpsertFigures(const Uid& uid, std::string_view node,
                                    std::string_view phase,
                                    const HostRequest& request, bool unstored) {
  base::MutexLock lock(mu_);
  // One lookup; an entry seen again is updated in place (a relist meets
  // every pod it holds: no erase and re-insert, no free and malloc).
  auto it = pods_.find(uid);
  if (it != pods_.end()) {
    Node& was = nodes_[it->second.node];
    was.requested.cpu_milli -= it->second.cpu_milli;
    was.requested.memory -= it->second.memory;
  }
  if (node.empty() || phase == "Succeeded" || phase == "Failed") {
    if (it != pods_.end()) pods_.erase(it);
    return OkStatus();
  }
  const uint32_t index = IndexLocked(node);  // Leaves pods_ untouched.
  nodes_[index].requested = Sum(nodes_[index].requested, request);
  const Pod entry = {index, unstored ? sweep_ : 0, request.cpu_milli,
                     request.memory};
  if (it != pods_.end()) {
    it->second = entry;
  } else {
    pods_.emplace(uid, entry);
  }
  return OkStatus();
}

void NodeResources::RemovePod(std::string_view uid) {
  auto parsed = ParseUid(uid);
  if (!parsed.ok()) return;
  base::MutexLock lock(mu_);
  RemoveLocked(*parsed);
}

std::optional<HostRequest> NodeResources::FreeOfNode(const Node* node) {
  if (node == nullptr || !node->known) return std::nullopt;
  return HostRequest{node->allocatable.cpu_milli - node->requested.cpu_milli,
                     node->allocatable.memory - node->requested.memory};
}

std::optional<HostRequest> NodeResources::FreeLocked(
    std::string_view name) const {
  return FreeOfNode(index_.Find(name));
}

std::optional<HostRequest> NodeResources::Free(std::string_view name) const {
  base::MutexLock lock(mu_);
  return FreeLocked(name);
}

std::vector<std::optional<HostRequest>> NodeResources::FreeOf(
    const std::vector<std::string_view>& nodes) const {
  std::vector<std::optional<HostRequest>> out(nodes.size());
  std::vector<const Node*> found(nodes.size());
  std::vector<uint64_t> hashes(nodes.size());  // Outside the lock.
  for (size_t i = 0; i < nodes.size(); ++i) {
    hashes[i] = NameIndex<Node>::Hash(nodes[i]);
  }
  base::MutexLock lock(mu_);
  // Memory-bound: first every name's slot (those of the next few names
  // load while one is read), requesting each node's figures; then the
  // figures, loaded by then (a node read right after its slot was a
  // cache miss per name: a tenth of a filter's CPU).
  constexpr size_t kAhead = 8;
  for (size_t i = 0; i < nodes.size() && i < kAhead; ++i) {
    index_.Prefetch(hashes[i]);
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (i + kAhead < nodes.size()) index_.Prefetch(hashes[i + kAhead]);
    found[i] = index_.Find(nodes[i], hashes[i]);
    if (found[i] != nullptr) __builtin_prefetch(&found[i]->requested);
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    out[i] = FreeOfNode(found[i]);
  }
  return out;
}

std::vector<std::optional<HostRequest>> NodeResources::FreeOf(
    const std::vector<std::string_view>& nodes,
    const std::vector<uint32_t>& indices) const {
  std::vector<std::optional<HostRequest>> out(nodes.size());
  base::MutexLock lock(mu_);
  // Each node's figures requested a few candidates ahead of reading them.
  constexpr size_t kAhead = 8;
  const auto at = [&](size_t i) REQUIRES(mu_) -> const Node* {
    return indices[i] < nodes_.size() ? &nodes_[indices[i]] : nullptr;
  };
  for (size_t i = 0; i < nodes.size() && i < kAhead; ++i) {
    if (const Node* node = at(i)) __builtin_prefetch(&node->requested);
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (i + kAhead < nodes.size()) {
      if (const Node* node = at(i + kAhead)) {
        __builtin_prefetch(&node->requested);
      }
    }
    const Node* node = at(i);
    out[i] = node != nullptr ? FreeOfNode(node) : FreeLocked(nodes[i]);
  }
  return out;
}

uint32_t NodeResources::IndexOf(std::string_view name) {
  base::MutexLock lock(mu_);
  return IndexLocked(name);
}

size_t NodeResources::pod_count() const {
  base::MutexLock lock(mu_);
  return pods_.size();
}

}  // namespace gcushare::extender
