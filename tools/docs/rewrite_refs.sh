#!/usr/bin/env bash
# Rewrites references to the outside design documents into references to
# the project's own docs/, in every tracked file outside docs/, third_party/
# and tools/docs/:
#   PROTOCOLS.md -> docs/protocols.md   (section numbers kept: "3.5" stays)
#   DESIGN.md    -> docs/architecture.md when the reference is about the
#                   flow of one pod, Allocate matching, node size goals,
#                   components or stand-ins (named on its line or the next);
#                   docs/contracts.md otherwise.
# Then re-formats the C++ files it changed (longer names may push a comment
# past 80 columns; clang-format re-wraps it).
#
# Idempotent: a second run finds nothing to rewrite and changes nothing.
# Run from anywhere inside the repository: tools/docs/rewrite_refs.sh
# Prints each file it changed; exit 0 also when there was nothing to do.
set -euo pipefail

cd "$(git rev-parse --show-toplevel)"

mapfile -t files < <(git grep -l -E 'DESIGN\.md|PROTOCOLS\.md' -- \
  ':!docs/' ':!third_party/' ':!tools/docs/' || true)
if ((${#files[@]} == 0)); then
  echo "no references to DESIGN.md or PROTOCOLS.md left"
  exit 0
fi

changed_cc=()
for f in "${files[@]}"; do
  [[ -f "$f" ]] || continue
  perl -0777 -i -pe '
    s{\bPROTOCOLS\.md}{docs/protocols.md}g;
    s{\bDESIGN\.md}{
      my $at = $-[0];
      my $line_start = rindex($_, "\n", $at) + 1;
      my $before = substr($_, $line_start, $at - $line_start);
      my $rest = substr($_, $at + 9);
      my ($after) = $rest =~ /\A([^\n]*\n?[^\n]*)/;
      ($before . " " . $after) =~
        /flow (?:step|of one pod)|Allocate matching|Any node size|Real peers|stand-ins?\b|Components and folders/i
        ? "docs/architecture.md" : "docs/contracts.md"
    }ge;
  ' "$f"
  echo "rewrote $f"
  case "$f" in
    *.cc | *.h) changed_cc+=("$f") ;;
  esac
done

if ((${#changed_cc[@]} > 0)); then
  if command -v clang-format >/dev/null; then
    clang-format -i --style=file "${changed_cc[@]}"
  else
    echo "clang-format not found: run tools/format/format.sh" >&2
    exit 1
  fi
fi
