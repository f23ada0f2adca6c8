#!/usr/bin/env bash
# Checks the references to design documents in a source tree:
#   - no file names the outside documents DESIGN.md or PROTOCOLS.md;
#   - every docs/<name>.md a file names exists;
#   - every section a file cites as "docs/protocols.md N.M" (also "section
#     N", "N.M-N.K", "N.M, N.K", across a comment line break) is a heading
#     of docs/protocols.md ("## N." or "### N.M").
# Files under docs/, third_party/ and tools/docs/ are not checked (they
# name the old documents on purpose). Files are those git tracks (plus new
# untracked ones) when ROOT is a git work tree, else every file under ROOT.
#
# Usage: check_refs.sh ROOT. Prints one line per bad reference
# (file:line: what) and exits 1 when there is any; exit 0 otherwise.
set -euo pipefail

root=${1:?usage: check_refs.sh ROOT}
cd "$root"

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard | sort -u)
else
  mapfile -t files < <(find . -path ./.git -prune -o -path './bazel-*' -prune \
    -o -type f -print | sed 's|^\./||' | sort)
fi

candidates=()
for f in "${files[@]}"; do
  case "$f" in
    docs/* | third_party/* | tools/docs/* | bazel-*) continue ;;
  esac
  [[ -f "$f" ]] || continue
  candidates+=("$f")
done
if ((${#candidates[@]} == 0)); then
  echo "no files to check under $root" >&2
  exit 1
fi

# Only files that mention a document at all (-I: skip binary files).
mapfile -t mentioning < <(printf '%s\0' "${candidates[@]}" |
  xargs -0 grep -lIE 'DESIGN\.md|PROTOCOLS\.md|docs/' -- 2>/dev/null || true)
if ((${#mentioning[@]} == 0)); then
  echo "checked ${#candidates[@]} files: no references"
  exit 0
fi

# Sections present in docs/protocols.md: "1", "1.1", ...
sections=""
if [[ -f docs/protocols.md ]]; then
  sections=$(sed -n -E 's/^##+ ([0-9]+(\.[0-9]+)?)\.? .*/\1/p' docs/protocols.md | tr '\n' ' ')
fi

SECTIONS="$sections" perl -e '
  my %have = map { $_ => 1 } split " ", $ENV{SECTIONS};
  my $bad = 0;
  for my $f (@ARGV) {
    open(my $fh, "<", $f) or die "$f: $!";
    local $/; my $text = <$fh>; close $fh;
    my $line_of = sub { 1 + (substr($text, 0, $_[0]) =~ tr/\n//) };
    my $report = sub { printf "%s:%d: %s\n", $f, $line_of->($_[0]), $_[1]; $bad = 1 };
    while ($text =~ /\b(DESIGN|PROTOCOLS)\.md/g) {
      $report->($-[0], "names $1.md, which is not in the repository: use docs/"
                . ($1 eq "DESIGN" ? "contracts.md or docs/architecture.md" : "protocols.md"));
    }
    while ($text =~ m{(?<![\w/.-])docs/([\w.-]+?)\.md}g) {
      $report->($-[0], "names docs/$1.md, which does not exist") unless -f "docs/$1.md";
    }
    # A citation: optional "section(s)"/"§", then numbers joined by "-", ",", "and".
    my $sep = qr{[ \t]*(?:\n[ \t]*(?://+|#+|\*)?[ \t]*)?};
    my $num = qr{\d+(?:\.\d+)?(?![\d.]*\d)};
    while ($text =~ m{docs/protocols\.md$sep(?:(?:sections?|§)$sep)?($num(?:$sep(?:-|,|and)$sep$num)*)}g) {
      my ($at, $list) = ($-[0], $1);
      for my $n ($list =~ /(\d+(?:\.\d+)?)/g) {
        $report->($at, "cites docs/protocols.md $n, which has no such section")
          unless $have{$n};
      }
    }
  }
  exit $bad;
' "${mentioning[@]}" && status=0 || status=$?
if ((status != 0)); then
  echo "bad design-document references (see docs/README.md; tools/docs/rewrite_refs.sh rewrites old names)" >&2
  exit 1
fi
echo "checked ${#candidates[@]} files: every design-document reference resolves"
