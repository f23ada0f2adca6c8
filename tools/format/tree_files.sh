# shellcheck shell=bash
# Sourced by the tree checks (buildifier.sh, shellcheck.sh). tree_files
# prints the regular files of the tree in the current directory, one a line,
# sorted, third_party/ left out: in a git checkout the files git tracks and
# the untracked ones it does not ignore; elsewhere every file but the
# bazel-* links' trees.
tree_files() {
  local candidates=() f
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t candidates < <(git ls-files --cached --others --exclude-standard | sort -u)
  else
    mapfile -t candidates < <(find . -path ./bazel-\* -prune -o -type f -print | sed 's|^\./||' | sort)
  fi
  for f in "${candidates[@]}"; do
    [[ -f "$f" && "$f" != third_party/* ]] && printf '%s\n' "$f"
  done
  return 0
}
