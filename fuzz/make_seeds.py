#!/usr/bin/env python3
"""Writes the seed corpora under fuzz/corpus/ from the conformance captures
(../shared/conformance, or tests/conformance) and the repository's own
fixtures. Run from the repository root; re-running rewrites the seed-*
files only (regression inputs, named crash-*, stay).

Usage: python3 fuzz/make_seeds.py [CONFORMANCE_DIR]
"""
import json
import os
import struct
import sys

ROOT = os.getcwd()
CONF = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tests/conformance")
OUT = os.path.join(ROOT, "fuzz/corpus")


def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


def conf(name):
    with open(os.path.join(CONF, name), "rb") as f:
        return f.read()


def repo(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def demux(stream):
    """{conn_id: concatenated payload} of an NRI mux byte stream."""
    out = {}
    i = 0
    while i + 8 <= len(stream):
        conn, length = struct.unpack(">II", stream[i:i + 8])
        out.setdefault(conn, b"")
        out[conn] += stream[i + 8:i + 8 + length]
        i += 8 + length
    return out


def ttrpc_frames(stream):
    """[(header bytes, data)] of a ttrpc byte stream."""
    frames = []
    i = 0
    while i + 10 <= len(stream):
        length = struct.unpack(">I", stream[i:i + 4])[0]
        frames.append((stream[i:i + 10], stream[i + 10:i + 10 + length]))
        i += 10 + length
    return frames


def varint(data, i):
    shift = value = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, i


def request_fields(data):
    """(method, payload) of a serialized ttrpc.Request."""
    i = 0
    method = payload = b""
    while i < len(data):
        key, i = varint(data, i)
        if key & 7 == 2:
            n, i = varint(data, i)
            if key >> 3 == 2:
                method = data[i:i + n]
            elif key >> 3 == 3:
                payload = data[i:i + n]
            i += n
        elif key & 7 == 0:
            _, i = varint(data, i)
        else:
            break
    return method.decode(), payload


# Extender bodies: filter and prioritize (both nodeCacheCapable forms), bind.
for f in sorted(os.listdir(CONF)):
    if f.endswith(".raw") and "bind" not in f:
        put("extender_args", f, conf(f))
        put("bounded_json", f, conf(f))
put("extender_bind", "bind.raw", conf("extender-ncc-true-bind-request.raw"))
put("extender_bind", "lowercase.json",
    '{"podName":"p","podNamespace":"ns","podUID":"u","node":"n"}')
put("extender_bind", "nulls.json", '{"PodName":null,"Node":1}')

# Watch streams built from captured objects.
args = json.loads(conf("extender-ncc-false-filter-2nodes.request.raw"))
pod = args["Pod"]
nodes = args["Nodes"]["items"]
events = [json.dumps({"type": "ADDED", "object": pod}, separators=(",", ":"))]
events += [json.dumps({"type": "MODIFIED", "object": n}, separators=(",", ":")) for n in nodes]
events.append('{"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":"12"}}}')
put("watch_decoder", "events.jsonl", "\n".join(events) + "\n")

# The filter body with quantities at their extremes (the old overflow).
for name, memory, count in (("exp-min-frac", "1.5e-2147483648", "1e2147483648"),
                            ("u64", "18446744073709551615", "-0"),
                            ("i64-min", "-9223372036854775808", "9223372036854775807Ki")):
    extreme = json.loads(json.dumps(args))
    for c in extreme["Pod"]["spec"]["containers"]:
        c["resources"]["limits"]["enflame.com/gcu-memory"] = memory
        c["resources"]["requests"]["enflame.com/gcu-memory"] = memory
        c["resources"]["limits"]["enflame.com/gcu-count"] = count
    put("extender_args", "extreme-%s.json" % name, json.dumps(extreme))
put("watch_decoder", "gone.jsonl",
    '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure",'
    '"message":"too old resource version","reason":"Expired","code":410}}\n')
put("watch_decoder", "deleted-partial.jsonl",
    '{"type":"DELETED","object":{"metadata":{"name":"a"}}}\n{"type":"ADD')

# NRI: the mux streams, the ttrpc streams inside them, the messages inside those.
r2p = conf("nri-containerd-1.7.13.runtime-to-plugin.bin")
p2r = conf("nri-containerd-1.7.13.plugin-to-runtime.bin")
put("mux_frame", "runtime-to-plugin.bin", r2p)
put("mux_frame", "plugin-to-runtime.bin", p2r)
put("mux_frame", "runtime-to-plugin-head.bin", r2p[:600])
selectors = {"CreateContainer": 0, "Configure": 1, "Synchronize": 2, "StateChange": 3}
seen = {}
for side, stream in (("r2p", r2p), ("p2r", p2r)):
    for conn, payload in sorted(demux(stream).items()):
        put("ttrpc_request", "%s-conn%d.bin" % (side, conn), payload)
        for k, (header, data) in enumerate(ttrpc_frames(payload)):
            if k < 6:
                put("ttrpc_request", "%s-conn%d-frame%d.bin" % (side, conn, k), header + data)
            if header[8] != 1:
                continue
            method, body = request_fields(data)
            if method in selectors and seen.get(method, 0) < 3:
                seen[method] = seen.get(method, 0) + 1
                put("nri_messages", "%s-%d.bin" % (method, seen[method]),
                    bytes([selectors[method]]) + body)
put("nri_messages", "empty.bin", b"\x05")

# Pod annotations, card lists, node card layouts.
put("pod_annotations", "memory.json",
    json.dumps({"enflame.com/gcu-device-id": "0", "enflame.com/gcu-device-memory": "16",
                "enflame.com/gcu-device-memory-request": "4",
                "enflame.com/gcu-device-assign-time": "1700000000000000000",
                "enflame.com/gcu-device-assigned": "true"}))
put("pod_annotations", "containers.json",
    json.dumps({"enflame.com/gcu-device-id": "2,3", "enflame.com/gcu-device-memory": "16",
                "enflame.com/gcu-device-assigned": "false",
                "enflame.com/gcu-container-devices": '{"main":[2],"side":[3]}'}))
put("pod_annotations", "captured.json", json.dumps(pod["metadata"].get("annotations", {})))
put("pod_annotations", "extremes.json",
    json.dumps({"enflame.com/gcu-device-id": "4294967296", "enflame.com/gcu-device-memory": "-0",
                "enflame.com/gcu-device-memory-request": "18446744073709551616",
                "enflame.com/gcu-device-assign-time": "-9223372036854775808",
                "enflame.com/gcu-device-assigned": "false",
                "enflame.com/gcu-container-devices": '{"main":[4294967295],"side":[-1]}'}))
for name, text in (("one", "0"), ("two", "2,3"), ("eight", "0,1,2,3,4,5,6,7"), ("max", "4294967295")):
    put("card_list", name, text)
put("node_cards", "two.json",
    '[{"index":0,"uuid":"GCU-U0000000001","memory":160,"healthy":true,"numa":0},'
    '{"index":1,"uuid":"GCU-U0000000002","memory":160,"healthy":false}]')
put("node_cards", "empty.json", "[]")

for name, text in (("int", "4"), ("gi", "16Gi"), ("m", "100M"), ("k", "1k"), ("zero", "0"),
                   ("exp", "1e3"), ("milli", "1000m")):
    put("quantity", name, text)
# Numbers at their extremes: the int32 exponent edges (the old parser
# overflowed an int on "1.5e-2147483648"), the 64-bit limits, -0, n/u.
for name, text in (("exp-min-frac", "1.5e-2147483648"), ("exp-max", "1e2147483647"),
                   ("exp-past-int32", "1e2147483648"), ("exp-zero-min", "0e-2147483648"),
                   ("u64-max", "18446744073709551615"), ("u64-past", "18446744073709551616"),
                   ("i64-min", "-9223372036854775808"), ("neg-zero", "-0"),
                   ("nano", "1000000000n"), ("micro", "2000000u"), ("ei", "15Ei"),
                   ("e308", "1e308"), ("e-308", "1e-308"), ("long", "0." + "0" * 300 + "1e301")):
    put("quantity", name, text)
for name, text in (("zero", "0-0"), ("base36", "a-zz"), ("big", "1z-3w5e11264sgsf")):
    put("device_id", name, text)

# CDI specs (as in cdi/parser_test.cc), fake cards, kubeconfig.
put("cdi_spec", "spec.yaml", b"\x00" + b"""# Enflame GCUs
cdiVersion: "0.5.0"
kind: enflame.com/gcu
devices:
  - name: "0"
    containerEdits:
      env:
        - ENFLAME_VISIBLE_DEVICES=0
      deviceNodes:
        - path: /dev/gcu0
          type: c
          major: 234
          minor: 0
containerEdits:
  deviceNodes:
    - path: /dev/gcuctl
""")
put("cdi_spec", "spec.json", b"\x01" + b"""{"cdiVersion": "0.5.0", "kind": "enflame.com/gcu",
 "devices": [{"name": "0", "containerEdits": {"env": ["ENFLAME_VISIBLE_DEVICES=0"],
 "deviceNodes": [{"path": "/dev/gcu0", "type": "c", "major": 234, "minor": 0}]}}]}""")
put("fake_cards", "fake-cards.yaml", repo("configs/fake-cards.yaml"))
put("fake_cards", "none.yaml", "cards: []\n")
put("kubeconfig", "two-contexts.yaml", """apiVersion: v1
kind: Config
current-context: main
contexts:
- name: main
  context: {cluster: c, user: u, namespace: team}
- name: kind-kind
  context: {cluster: c2, user: u}
clusters:
- name: c
  cluster:
    server: https://10.0.0.1:6443/
    certificate-authority-data: Q0EtUEVN
- name: c2
  cluster:
    server: https://[::1]:6443
    certificate-authority: ca.crt
    insecure-skip-tls-verify: true
users:
- name: u
  user:
    token: abc.def
    tokenFile: token
    client-certificate-data: Q0VSVC1QRU0=
    client-key-data: S0VZLVBFTQ==
""")

# Config manager: kube-scheduler manifests and scheduler configurations.
td = "config-manager/testdata"
for f in sorted(os.listdir(os.path.join(ROOT, td))):
    target = "scheduler_manifest" if f.startswith("kube-scheduler-1.") and not f.endswith("-config.yaml") else "scheduler_config"
    put(target, f, repo(os.path.join(td, f)))
put("scheduler_config", "conformance.yaml", conf("extender-ncc-false.scheduler-config.yaml"))
put("bounded_json", "deep.json", "[" * 101 + "]" * 101)
put("bounded_json", "yaml.yaml", repo("configs/fake-cards.yaml"))

# DRA driver: ResourceClaims (resource.k8s.io/v1) and checkpoints.
def dra_result(device, request="gcu", share=None, memory=None, key="memory",
               driver="gcu.enflame.com", pool="node-1"):
    r = {"request": request, "driver": driver, "pool": pool, "device": device}
    if share:
        r["shareID"] = share
    if memory:
        r["consumedCapacity"] = {key: memory}
    return r


def dra_claim(results, uid="uid-1"):
    return json.dumps({
        "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
        "metadata": {"name": "c1", "namespace": "demo", "uid": uid},
        "spec": {"devices": {"requests": [{"name": "gcu", "exactly": {
            "deviceClassName": "gcu.enflame.com",
            "capacity": {"requests": {"memory": "4Gi"}}}}]}},
        "status": {"allocation": {"devices": {"results": results}},
                   "reservedFor": [{"resource": "pods", "name": "p1",
                                    "uid": "pod-uid"}]}}, indent=2)


put("allocated_claim", "whole.json", dra_claim([dra_result("gcu-0")]))
put("allocated_claim", "shared.json", dra_claim([
    dra_result("gcu-1", share="6f1c8a39-2b4e-4d1a-9c3e-7f2b1a0d9e8c", memory="4Gi"),
    dra_result("gcu-1", share="s2", memory="107374182400m",
               key="gcu.enflame.com/memory")]))
put("allocated_claim", "mixed.json", dra_claim([
    dra_result("gpu-0", request="gpu", driver="gpu.example.com", pool="other"),
    dra_result("gcu-2", request="a/b"), dra_result("gcu-3", request="x")]))
put("allocated_claim", "other-pool.json", dra_claim([dra_result("gcu-0", pool="node-2")]))
put("allocated_claim", "unallocated.json", json.dumps({
    "metadata": {"name": "c1", "namespace": "demo", "uid": "uid-1"},
    "status": {}}))


def dra_checkpoint(claims, boot="boot-1"):
    body = {"version": 1, "bootId": boot, "claims": claims}
    h = 0xcbf29ce484222325
    for b in json.dumps(body, sort_keys=True, separators=(",", ":"),
                        ensure_ascii=False).encode():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    body["checksum"] = "%016x" % h
    return json.dumps(body, indent=2, sort_keys=True) + "\n"


def dra_record(state, devices):
    return {"namespace": "demo", "name": "c1", "state": state,
            "cdiSpecFile": "/var/run/cdi/k8s.gcu.enflame.com-gcu_u1.json",
            "devices": devices}


put("dra_checkpoint", "empty.json", dra_checkpoint({}))
put("dra_checkpoint", "claims.json", dra_checkpoint({
    "u1": dra_record("PrepareCompleted", [
        {"request": "gcu", "pool": "node-1", "device": "gcu-2", "cardIndex": 2,
         "shareId": "s-1", "consumedMillibytes": 4294967296000,
         "cdiIds": ["k8s.gcu.enflame.com/gcu=u1-gcu-2-s-1"]}]),
    "u2": dra_record("PrepareStarted", [
        {"request": "gcu", "pool": "node-1", "device": "gcu-0", "cardIndex": 0,
         "cdiIds": ["k8s.gcu.enflame.com/gcu=u2-gcu-0"]}])}))
put("dra_checkpoint", "bad-checksum.json",
    dra_checkpoint({}).replace('"boot-1"', '"boot-2"'))


# The extender's reader of plain pods' text: the captured pod (a GCU pod,
# which the reader leaves), the same pod without our resources, annotations
# and their managedFields entries, bound, with requests, limits, a sidecar and an init
# container, and a small plain pod.
def without_ours(value):
    if isinstance(value, dict):
        return {k: without_ours(v) for k, v in value.items()
                if "enflame.com/" not in k}
    if isinstance(value, list):
        return [without_ours(v) for v in value]
    return value


_captured = json.loads(
    conf("extender-ncc-true-filter-request-1node.raw").decode()
    .split("\r\n\r\n", 1)[-1])["Pod"]
put("unkept_pod_text", "gcu-pod-kube-scheduler-1.26.json",
    json.dumps(_captured, separators=(",", ":")))
_plain = without_ours(_captured)
_plain["spec"]["nodeName"] = "node-1"
_plain["spec"]["containers"][0]["resources"] = {
    "requests": {"cpu": "250m", "memory": "64Mi"},
    "limits": {"cpu": "1", "memory": "128Mi"}}
_plain["spec"]["initContainers"] = [
    {"name": "side", "restartPolicy": "Always",
     "resources": {"requests": {"cpu": "100u"}}},
    {"name": "setup", "resources": {"limits": {"memory": "1.5Gi"}}}]
_plain["status"] = {"phase": "Running"}
put("unkept_pod_text", "plain-pod-from-kube-scheduler-1.26.json",
    json.dumps(_plain, separators=(",", ":")))
put("unkept_pod_text", "small-plain-pod.json", json.dumps({
    "metadata": {"name": "p", "namespace": "ns",
                 "uid": "8a3c3f0e-1b2d-4e5f-9a8b-7c6d5e4f3a2b",
                 "resourceVersion": "7"},
    "spec": {"nodeName": "n", "containers": [
        {"name": "a", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]},
    "status": {"phase": "Running"}}, separators=(",", ":")))

# Bound GCU pods as the pod informer lists them (kept_pod_text): the
# captured pod assigned a card, and a whole-card pod with a sidecar.
_assigned = json.loads(json.dumps(_captured))
_assigned["metadata"].setdefault("annotations", {}).update({
    "enflame.com/gcu-device-id": "1",
    "enflame.com/gcu-device-memory": "16",
    "enflame.com/gcu-device-memory-request": "4",
    "enflame.com/gcu-device-assign-time": "1764400000000000000",
    "enflame.com/gcu-device-assigned": "true",
    "enflame.com/gcu-container-devices": json.dumps(
        {c["name"]: [1] for c in _assigned["spec"]["containers"]},
        separators=(",", ":"))})
_assigned["metadata"]["uid"] = "8a3c3f0e-1b2d-4e5f-9a8b-7c6d5e4f3a2c"
_assigned["spec"]["nodeName"] = "node-1"
_assigned["status"] = {"phase": "Running"}
put("kept_pod_text", "assigned-pod-from-kube-scheduler-1.26.json",
    json.dumps(_assigned, separators=(",", ":")))
put("kept_pod_text", "whole-card-pod-with-sidecar.json", json.dumps({
    "metadata": {"name": "w", "namespace": "ns",
                 "uid": "8a3c3f0e-1b2d-4e5f-9a8b-7c6d5e4f3a2b",
                 "resourceVersion": "9",
                 "creationTimestamp": "2026-11-29T07:00:00Z",
                 "annotations": {
                     "enflame.com/gcu-device-id": "2,3",
                     "enflame.com/gcu-device-memory": "16",
                     "enflame.com/gcu-device-memory-request": "32",
                     "enflame.com/gcu-device-assign-time": "1",
                     "enflame.com/gcu-device-assigned": "false",
                     "enflame.com/gcu-container-devices":
                         "{\"main\":[2,3]}"}},
    "spec": {"nodeName": "n", "containers": [
        {"name": "main", "resources": {
            "limits": {"enflame.com/gcu-count": "2"},
            "requests": {"cpu": "2", "memory": "4Gi"}}}],
        "initContainers": [
            {"name": "side", "restartPolicy": "Always",
             "resources": {"requests": {"cpu": "100m"}}}]},
    "status": {"phase": "Running"}}, separators=(",", ":")))
