#include "tests/peers/scheduler/go_json.h"

#include <map>
#include <set>
#include <utility>
#include <vector>

namespace gcushare::scheduler {
namespace {

// One field of a Go struct: its JSON name and the Go type of its value (of
// each element, for slices); "" for scalars, maps and raw JSON.
struct Field {
  std::string_view name;
  std::string_view type;
};

using TypeTable = std::map<std::string_view, std::vector<Field>, std::less<>>;

// core/v1 and meta/v1 struct fields in declaration order (k8s.io/api
// core/v1/types.go, apimachinery meta/v1/types.go). Only the types a Pod or
// Node commonly carries; the rest marshal with sorted keys.
const TypeTable& Types() {  // NOLINT(readability-function-size): a table
  static const TypeTable* const kTypes = new TypeTable{
      {"Pod",
       {{"kind", ""},
        {"apiVersion", ""},
        {"metadata", "ObjectMeta"},
        {"spec", "PodSpec"},
        {"status", "PodStatus"}}},
      {"Node",
       {{"kind", ""},
        {"apiVersion", ""},
        {"metadata", "ObjectMeta"},
        {"spec", "NodeSpec"},
        {"status", "NodeStatus"}}},
      {"NodeList",
       {{"kind", ""},
        {"apiVersion", ""},
        {"metadata", "ListMeta"},
        {"items", "Node"}}},
      {"ListMeta",
       {{"selfLink", ""},
        {"resourceVersion", ""},
        {"continue", ""},
        {"remainingItemCount", ""}}},
      {"ObjectMeta",
       {{"name", ""},
        {"generateName", ""},
        {"namespace", ""},
        {"selfLink", ""},
        {"uid", ""},
        {"resourceVersion", ""},
        {"generation", ""},
        {"creationTimestamp", ""},
        {"deletionTimestamp", ""},
        {"deletionGracePeriodSeconds", ""},
        {"labels", ""},
        {"annotations", ""},
        {"ownerReferences", "OwnerReference"},
        {"finalizers", ""},
        {"managedFields", "ManagedFieldsEntry"}}},
      {"OwnerReference",
       {{"apiVersion", ""},
        {"kind", ""},
        {"name", ""},
        {"uid", ""},
        {"controller", ""},
        {"blockOwnerDeletion", ""}}},
      {"ManagedFieldsEntry",
       {{"manager", ""},
        {"operation", ""},
        {"apiVersion", ""},
        {"time", ""},
        {"fieldsType", ""},
        {"fieldsV1", ""},
        {"subresource", ""}}},
      {"PodSpec",
       {{"volumes", "Volume"},
        {"initContainers", "Container"},
        {"containers", "Container"},
        {"ephemeralContainers", "Container"},
        {"restartPolicy", ""},
        {"terminationGracePeriodSeconds", ""},
        {"activeDeadlineSeconds", ""},
        {"dnsPolicy", ""},
        {"nodeSelector", ""},
        {"serviceAccountName", ""},
        {"serviceAccount", ""},
        {"automountServiceAccountToken", ""},
        {"nodeName", ""},
        {"hostNetwork", ""},
        {"hostPID", ""},
        {"hostIPC", ""},
        {"shareProcessNamespace", ""},
        {"securityContext", "PodSecurityContext"},
        {"imagePullSecrets", ""},
        {"hostname", ""},
        {"subdomain", ""},
        {"affinity", "Affinity"},
        {"schedulerName", ""},
        {"tolerations", "Toleration"},
        {"hostAliases", ""},
        {"priorityClassName", ""},
        {"priority", ""},
        {"dnsConfig", ""},
        {"readinessGates", ""},
        {"runtimeClassName", ""},
        {"enableServiceLinks", ""},
        {"preemptionPolicy", ""},
        {"overhead", ""},
        {"topologySpreadConstraints", ""},
        {"setHostnameAsFQDN", ""},
        {"os", ""},
        {"hostUsers", ""},
        {"schedulingGates", ""},
        {"resourceClaims", ""},
        {"resources", "ResourceRequirements"}}},
      {"Volume",
       {{"name", ""},
        {"hostPath", ""},
        {"emptyDir", ""},
        {"secret", ""},
        {"persistentVolumeClaim", ""},
        {"downwardAPI", ""},
        {"configMap", ""},
        {"projected", ""},
        {"csi", ""},
        {"ephemeral", ""},
        {"image", ""}}},
      {"Container",
       {{"name", ""},
        {"image", ""},
        {"command", ""},
        {"args", ""},
        {"workingDir", ""},
        {"ports", "ContainerPort"},
        {"envFrom", ""},
        {"env", "EnvVar"},
        {"resources", "ResourceRequirements"},
        {"resizePolicy", ""},
        {"restartPolicy", ""},
        {"restartPolicyRules", ""},
        {"volumeMounts", "VolumeMount"},
        {"volumeDevices", ""},
        {"livenessProbe", ""},
        {"readinessProbe", ""},
        {"startupProbe", ""},
        {"lifecycle", ""},
        {"terminationMessagePath", ""},
        {"terminationMessagePolicy", ""},
        {"imagePullPolicy", ""},
        {"securityContext", ""},
        {"stdin", ""},
        {"stdinOnce", ""},
        {"tty", ""}}},
      {"ContainerPort",
       {{"name", ""},
        {"hostPort", ""},
        {"containerPort", ""},
        {"protocol", ""},
        {"hostIP", ""}}},
      {"EnvVar", {{"name", ""}, {"value", ""}, {"valueFrom", ""}}},
      {"ResourceRequirements",
       {{"limits", ""}, {"requests", ""}, {"claims", ""}}},
      {"VolumeMount",
       {{"name", ""},
        {"readOnly", ""},
        {"recursiveReadOnly", ""},
        {"mountPath", ""},
        {"subPath", ""},
        {"mountPropagation", ""},
        {"subPathExpr", ""}}},
      {"PodSecurityContext",
       {{"seLinuxOptions", ""},
        {"windowsOptions", ""},
        {"runAsUser", ""},
        {"runAsGroup", ""},
        {"runAsNonRoot", ""},
        {"supplementalGroups", ""},
        {"supplementalGroupsPolicy", ""},
        {"fsGroup", ""},
        {"sysctls", ""},
        {"fsGroupChangePolicy", ""},
        {"seccompProfile", ""},
        {"appArmorProfile", ""},
        {"seLinuxChangePolicy", ""}}},
      {"Affinity",
       {{"nodeAffinity", "NodeAffinity"},
        {"podAffinity", ""},
        {"podAntiAffinity", ""}}},
      {"NodeAffinity",
       {{"requiredDuringSchedulingIgnoredDuringExecution", "NodeSelector"},
        {"preferredDuringSchedulingIgnoredDuringExecution",
         "PreferredSchedulingTerm"}}},
      {"NodeSelector", {{"nodeSelectorTerms", "NodeSelectorTerm"}}},
      {"NodeSelectorTerm",
       {{"matchExpressions", "NodeSelectorRequirement"},
        {"matchFields", "NodeSelectorRequirement"}}},
      {"NodeSelectorRequirement",
       {{"key", ""}, {"operator", ""}, {"values", ""}}},
      {"PreferredSchedulingTerm",
       {{"weight", ""}, {"preference", "NodeSelectorTerm"}}},
      {"Toleration",
       {{"key", ""},
        {"operator", ""},
        {"value", ""},
        {"effect", ""},
        {"tolerationSeconds", ""}}},
      {"PodStatus",
       {{"observedGeneration", ""},
        {"phase", ""},
        {"conditions", "PodCondition"},
        {"message", ""},
        {"reason", ""},
        {"nominatedNodeName", ""},
        {"hostIP", ""},
        {"hostIPs", ""},
        {"podIP", ""},
        {"podIPs", ""},
        {"startTime", ""},
        {"initContainerStatuses", "ContainerStatus"},
        {"containerStatuses", "ContainerStatus"},
        {"qosClass", ""},
        {"ephemeralContainerStatuses", "ContainerStatus"},
        {"resize", ""},
        {"resourceClaimStatuses", ""}}},
      {"PodCondition",
       {{"type", ""},
        {"observedGeneration", ""},
        {"status", ""},
        {"lastProbeTime", ""},
        {"lastTransitionTime", ""},
        {"reason", ""},
        {"message", ""}}},
      {"ContainerStatus",
       {{"name", ""},
        {"state", ""},
        {"lastState", ""},
        {"ready", ""},
        {"restartCount", ""},
        {"image", ""},
        {"imageID", ""},
        {"containerID", ""},
        {"started", ""},
        {"allocatedResources", ""},
        {"resources", "ResourceRequirements"},
        {"volumeMounts", ""},
        {"user", ""},
        {"allocatedResourcesStatus", ""},
        {"stopSignal", ""}}},
      {"NodeSpec",
       {{"podCIDR", ""},
        {"podCIDRs", ""},
        {"providerID", ""},
        {"unschedulable", ""},
        {"taints", "Taint"},
        {"configSource", ""},
        {"externalID", ""}}},
      {"Taint",
       {{"key", ""}, {"value", ""}, {"effect", ""}, {"timeAdded", ""}}},
      {"NodeStatus",
       {{"capacity", ""},
        {"allocatable", ""},
        {"phase", ""},
        {"conditions", "NodeCondition"},
        {"addresses", "NodeAddress"},
        {"daemonEndpoints", "NodeDaemonEndpoints"},
        {"nodeInfo", "NodeSystemInfo"},
        {"images", "ContainerImage"},
        {"volumesInUse", ""},
        {"volumesAttached", "AttachedVolume"},
        {"config", ""},
        {"runtimeHandlers", ""},
        {"features", ""},
        {"declaredFeatures", ""}}},
      {"NodeCondition",
       {{"type", ""},
        {"status", ""},
        {"lastHeartbeatTime", ""},
        {"lastTransitionTime", ""},
        {"reason", ""},
        {"message", ""}}},
      {"NodeAddress", {{"type", ""}, {"address", ""}}},
      {"NodeDaemonEndpoints", {{"kubeletEndpoint", "DaemonEndpoint"}}},
      {"DaemonEndpoint", {{"Port", ""}}},
      {"NodeSystemInfo",
       {{"machineID", ""},
        {"systemUUID", ""},
        {"bootID", ""},
        {"kernelVersion", ""},
        {"osImage", ""},
        {"containerRuntimeVersion", ""},
        {"kubeletVersion", ""},
        {"kubeProxyVersion", ""},
        {"operatingSystem", ""},
        {"architecture", ""},
        {"swap", ""}}},
      {"ContainerImage", {{"names", ""}, {"sizeBytes", ""}}},
      {"AttachedVolume", {{"name", ""}, {"devicePath", ""}}},
  };
  return *kTypes;
}

constexpr char kHex[] = "0123456789abcdef";

void AppendUnicodeEscape(unsigned code, std::string& out) {
  out += "\\u";
  out += kHex[(code >> 12) & 0xF];
  out += kHex[(code >> 8) & 0xF];
  out += kHex[(code >> 4) & 0xF];
  out += kHex[code & 0xF];
}

// Length of the valid UTF-8 sequence at text[i], or 0 when invalid.
size_t Utf8SequenceLength(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) {
    return static_cast<unsigned char>(text[k]);
  };
  const unsigned char c = byte(i);
  size_t length = 0;
  unsigned code = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
    code = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    code = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    code = c & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are invalid.
  if ((length == 3 && code < 0x800) || (length == 4 && code < 0x10000) ||
      (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) {
    return 0;
  }
  return length;
}

void Write(const nlohmann::json& value, std::string_view type,
           std::string& out);

void WriteObject(const nlohmann::json& object, std::string_view type,
                 std::string& out) {
  out += '{';
  bool first = true;
  const auto emit = [&](const std::string& key, const nlohmann::json& child,
                        std::string_view child_type) {
    if (!first) out += ',';
    first = false;
    AppendGoJsonString(key, out);
    out += ':';
    Write(child, child_type, out);
  };
  const TypeTable& types = Types();
  auto it = types.find(type);
  if (it == types.end()) {
    // A map or an unknown type: sorted keys (nlohmann's own order).
    for (auto child = object.begin(); child != object.end(); ++child) {
      emit(child.key(), child.value(), "");
    }
  } else {
    std::set<std::string_view> known;
    for (const Field& field : it->second) {
      known.insert(field.name);
      auto child = object.find(std::string(field.name));
      if (child != object.end()) emit(child.key(), *child, field.type);
    }
    for (auto child = object.begin(); child != object.end(); ++child) {
      if (known.count(child.key()) == 0) emit(child.key(), *child, "");
    }
  }
  out += '}';
}

void Write(const nlohmann::json& value, std::string_view type,
           std::string& out) {
  switch (value.type()) {
    case nlohmann::json::value_t::object:
      WriteObject(value, type, out);
      return;
    case nlohmann::json::value_t::array: {
      out += '[';
      bool first = true;
      for (const nlohmann::json& element : value) {
        if (!first) out += ',';
        first = false;
        Write(element, type, out);
      }
      out += ']';
      return;
    }
    case nlohmann::json::value_t::string:
      AppendGoJsonString(value.get_ref<const std::string&>(), out);
      return;
    default:
      out += value.dump();
      return;
  }
}

}  // namespace

void AppendGoJsonString(std::string_view text, std::string& out) {
  out += '"';
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        case '<':
        case '>':
        case '&':
          AppendUnicodeEscape(c, out);
          break;
        default:
          if (c < 0x20) {
            AppendUnicodeEscape(c, out);
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    const size_t length = Utf8SequenceLength(text, i);
    if (length == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    const std::string_view sequence = text.substr(i, length);
    if (sequence == "\xE2\x80\xA8") {
      out += "\\u2028";
    } else if (sequence == "\xE2\x80\xA9") {
      out += "\\u2029";
    } else {
      out += sequence;
    }
    i += length;
  }
  out += '"';
}

std::string GoJson(const nlohmann::json& value, std::string_view go_type) {
  std::string out;
  Write(value, go_type, out);
  return out;
}

}  // namespace gcushare::scheduler
