#!/usr/bin/env bash
# Imports the release image into a REAL containerd (Debian's containerd and
# runc) that this test starts in its own root, state directory and socket
# under /tmp, with its own configuration (no CRI plugin), and runs every
# binary's --version inside it with `ctr run`: each must print
# "<name> <version>" as the image's default user (65532). Both archives are
# imported (ctr reads the OCI and the docker one). Snapshotter: overlayfs,
# else native. containerd is stopped at the end, also on failure. The test
# skips (exit 0, with the reason) only when the kernel refuses to run
# containers here: no snapshotter can mount, or runc cannot create
# namespaces.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

FAKE_CARDS=$(readlink -f "$(dirname "$0")/../../configs/fake-cards.yaml")
[[ -f "$FAKE_CARDS" ]] || fail "configs/fake-cards.yaml is not among the runfiles"
for tool in containerd ctr runc; do
  command -v "$tool" >/dev/null || fail "needs '$tool' on PATH (scripts/setup.sh installs containerd and runc)"
done
[[ $(id -u) == 0 ]] || fail "needs root to run containerd"

# Short paths: a unix socket path is limited to 108 bytes.
base=$(mktemp -d /tmp/gcsi.XXXXXX)
sock=$base/c.sock
pid=
cleanup() {
  if [[ -n "$pid" ]]; then
    ctr -a "$sock" -n gcushare-test tasks ls -q 2>/dev/null |
      xargs -r -n1 ctr -a "$sock" -n gcushare-test tasks kill -s KILL 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  # Mounts containerd left behind (overlay snapshots, shm) go first.
  grep -o " $base/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
  rm -rf "$base"
}
trap cleanup EXIT

mkdir -m 0755 "$base/root-dir"
mkdir -m 0700 "$base/user-dir"
chown 65532:65532 "$base/user-dir"
cat >"$base/config.toml" <<EOF
version = 2
root = "$base/root"
state = "$base/state"
disabled_plugins = ["io.containerd.grpc.v1.cri"]
[grpc]
  address = "$sock"
[ttrpc]
  address = "$sock.ttrpc"
[debug]
  address = ""
EOF
containerd --config "$base/config.toml" >"$base/containerd.log" 2>&1 &
pid=$!
# Wait until it answers on its socket (or dies).
until ctr -a "$sock" version >/dev/null 2>&1; do
  kill -0 "$pid" 2>/dev/null || { cat "$base/containerd.log" >&2; fail "containerd exited at start"; }
  sleep 0.1
done
pass "containerd $(ctr -a "$sock" version | awk '/Version/ { print $2; exit }') on $sock"

c() { ctr -a "$sock" -n gcushare-test "$@"; }

# Pick the snapshotter: import, then unpack into overlayfs, else native.
snapshotter=
for s in overlayfs native; do
  if c images import --snapshotter "$s" "$OCI_ARCHIVE" >"$base/import.out" 2>&1 &&
    c run --rm --snapshotter "$s" "$REF" probe-$s /usr/bin/gcushare-cdi --version >"$base/probe.out" 2>&1; then
    snapshotter=$s
    break
  fi
  echo "snapshotter $s: $(cat "$base/import.out" "$base/probe.out" 2>/dev/null | tail -n 3)" >&2
  c images rm "$REF" >/dev/null 2>&1 || true
done
if [[ -z "$snapshotter" ]]; then
  if grep -qiE 'operation not permitted|permission denied|invalid argument|no such device|unshare|namespace' "$base/probe.out" "$base/import.out" 2>/dev/null; then
    echo "SKIP: the kernel refuses containers here (neither overlayfs nor native snapshots can run runc):" >&2
    cat "$base/probe.out" >&2
    exit 0
  fi
  cat "$base/import.out" "$base/probe.out" "$base/containerd.log" >&2
  fail "could not run a container from $OCI_ARCHIVE"
fi
pass "imported $(basename "$OCI_ARCHIVE") with the $snapshotter snapshotter"

# The image containerd holds is the one the digest names.
got=$(c images ls | awk -v r="$REF" '$1 == r { print $3 }')
[[ "$got" == "$DIGEST" ]] || fail "containerd holds $REF as '$got', want $DIGEST"

run_all() {  # label
  local b out
  for b in "${BINARIES[@]}"; do
    out=$(c run --rm --snapshotter "$snapshotter" "$REF" "v-$b" "/usr/bin/$b" --version 2>&1) ||
      fail "$1: /usr/bin/$b --version failed: $out"
    [[ "$out" == "$b $VERSION" ]] || fail "$1: /usr/bin/$b --version printed '$out', want '$b $VERSION'"
    pass "$1: $out"
  done
  # The default user is 65532: it cannot write a root-owned 0755
  # directory (root could), and can write one that only uid 65532 may.
  local gen=(/usr/bin/gcushare-cdi generate --efml-backend=fake
    --fake-cards=/cards.yaml --output-dir=/out)
  local cards=(--mount "type=bind,src=$FAKE_CARDS,dst=/cards.yaml,options=rbind:ro")
  out=$(c run --rm --snapshotter "$snapshotter" "${cards[@]}" \
    --mount "type=bind,src=$base/root-dir,dst=/out,options=rbind:rw" "$REF" user-a "${gen[@]}" 2>&1) &&
    fail "$1: the default user wrote a root-owned 0755 directory: $out"
  [[ "$out" == *ermission* ]] || fail "$1: want 'permission denied' in a root-owned directory, got: $out"
  out=$(c run --rm --snapshotter "$snapshotter" "${cards[@]}" \
    --mount "type=bind,src=$base/user-dir,dst=/out,options=rbind:rw" "$REF" user-b "${gen[@]}" 2>&1) ||
    fail "$1: the default user could not write a directory of uid 65532 (mode 0700): $out"
  [[ "$(stat -c %u "$base/user-dir/enflame.com-gcu.json")" == 65532 ]] || fail "$1: the spec is not owned by 65532"
  rm -f "$base/user-dir"/*
  pass "$1: runs as uid 65532 by default"
}
run_all "oci-archive"

# The docker-archive: same image, same digest once imported.
c images rm "$REF" >/dev/null
c images import --snapshotter "$snapshotter" "$DOCKER_ARCHIVE" >/dev/null
got=$(c images ls | awk -v r="$REF" '$1 == r { print $3 }')
[[ -n "$got" ]] || fail "importing $(basename "$DOCKER_ARCHIVE") did not give $REF"
run_all "docker-archive"
echo "PASS"
