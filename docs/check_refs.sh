#!/usr/bin/env bash
# Checks the references to the project's documents in a source tree:
#   - no file names the outside documents DESIGN.md or PROTOCOLS.md;
#   - every docs/<name>.md a file names exists, and so does every other
#     <dir>/<name>.md whose first folder is in the tree (root-relative, or
#     relative to the naming file: "../README.md"); paths into folders the
#     tree does not have (an outside "shared/X.md", "/abs/X.md") are not
#     checked;
#   - every section a file cites as "docs/protocols.md N.M" (also "section
#     N", "N.M-N.K", "N.M, N.K", across a comment line break) is a heading
#     of docs/protocols.md ("## N." or "### N.M");
#   - every section cited by name, README "Section", README.md "Section",
#     docs/x.md "Section", <path>.md, "Section", <path>.md ("Section") or,
#     in Markdown, [text](x.md) "Section" (the name may run across a comment
#     line break), is a heading of that document: the heading itself or its
#     first words (backticks, case and a closing "." aside); a bare README
#     is the top-level README.md;
#   - in Markdown files, every relative link [text](path) names a file or
#     folder that exists, and a link's #anchor is the GitHub anchor of a
#     heading of the target (or of the file itself);
#   - docs/architecture.md lists every top-level folder of the tree as
#     `name/` in its "## Folders" section (names of folders the tree does
#     not have yet are fine).
# README.md and docs/ are checked like every other file; not checked are
# third_party/, tools/docs/ (it names the old documents on purpose) and
# this checker and its test (they hold bad references as examples). Files
# are those git tracks (plus new untracked ones) when ROOT is a git work
# tree, else every file under ROOT.
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
folders=()
for f in "${files[@]}"; do
  [[ -f "$f" ]] || continue
  case "$f" in
    */*) folders+=("${f%%/*}") ;;
  esac
  case "$f" in
    third_party/* | tools/docs/* | bazel-* | docs/check_refs.sh | docs/references_test.sh) continue ;;
  esac
  candidates+=("$f")
done
if ((${#candidates[@]} == 0)); then
  echo "no files to check under $root" >&2
  exit 1
fi
folder_list=$(printf '%s\n' "${folders[@]}" | sort -u | tr '\n' ' ')

# Markdown files, and the others that mention a document at all (-I: skip
# binary files).
mapfile -t mentioning < <({
  printf '%s\n' "${candidates[@]}" | grep -E '\.md$' || true
  printf '%s\0' "${candidates[@]}" |
    xargs -0 grep -lIE '\.md|README|docs/' -- 2>/dev/null || true
} | sort -u)

# Sections present in docs/protocols.md: "1", "1.1", ...
sections=""
if [[ -f docs/protocols.md ]]; then
  sections=$(sed -n -E 's/^##+ ([0-9]+(\.[0-9]+)?)\.? .*/\1/p' docs/protocols.md | tr '\n' ' ')
fi

SECTIONS="$sections" FOLDERS="$folder_list" perl -e '
  use strict; use warnings;
  my %have = map { $_ => 1 } split " ", $ENV{SECTIONS};
  my %top = map { $_ => 1 } split " ", $ENV{FOLDERS};
  my $bad = 0;
  my %headings;  # document path -> [normalised heading texts]
  my %anchors;   # document path -> {GitHub anchor => 1}
  my $norm = sub {
    my $s = lc shift; $s =~ s/`//g; $s =~ s/\s+/ /g; $s =~ s/^ | $//g;
    $s =~ s/[.:]$//; return $s;
  };
  my $load = sub {
    my $doc = shift;
    return if $headings{$doc};
    $headings{$doc} = []; $anchors{$doc} = {};
    open(my $fh, "<", $doc) or return;
    local $/ = "\n";
    my ($fence, %seen) = (0);
    while (my $line = <$fh>) {
      if ($line =~ /^\s*(```|~~~)/) { $fence = !$fence; next; }
      next if $fence or $line !~ /^#{1,6}\s+(.*?)\s*#*\s*$/;
      my $h = $1;
      push @{$headings{$doc}}, $norm->($h);
      my $a = lc $h; $a =~ s/[^\w\- ]//g; $a =~ s/ /-/g;
      my $n = $seen{$a}++;
      $anchors{$doc}{$n ? "$a-$n" : $a} = 1;
    }
    close $fh;
  };
  # A path as named in $file: root-relative, else relative to $file.
  my $resolve = sub {
    my ($file, $path) = @_;
    return $path if -e $path;
    (my $dir = $file) =~ s{[^/]*$}{};
    my $rel = $dir . $path;
    1 while $rel =~ s{(^|/)\./}{$1};
    1 while $rel =~ s{(^|/)(?!\.\./)[^/]+/\.\./}{$1};
    return $rel if -e $rel;
    return undef;
  };
  my $cont = qr{\n[ \t]*(?://+|#+|\*)?[ \t]*};  # a comment line break
  my $sep = qr{[ \t]*(?:$cont)?};
  my $num = qr{\d+(?:\.\d+)?(?![\d.]*\d)};
  for my $f (@ARGV) {
    open(my $fh, "<", $f) or die "$f: $!";
    local $/; my $text = <$fh>; close $fh;
    my $line_of = sub { 1 + (substr($text, 0, $_[0]) =~ tr/\n//) };
    my $report = sub { printf "%s:%d: %s\n", $f, $line_of->($_[0]), $_[1]; $bad = 1 };
    my $md = $f =~ /\.md$/;
    my $check_section = sub {  # at, document as named, resolved path, cited text
      my ($at, $named, $doc, $cited) = @_;
      $cited =~ s/$cont/ /g;
      my $want = $norm->($cited);
      $load->($doc);
      for my $h (@{$headings{$doc}}) {
        return if $h eq $want or (index($h, $want) == 0 and substr($h, length $want) =~ /^\W/);
      }
      $report->($at, "cites $named \"$cited\", which has no such heading");
    };
    while ($text =~ /\b(DESIGN|PROTOCOLS)\.md/g) {
      $report->($-[0], "names $1.md, which is not in the repository: use docs/"
                . ($1 eq "DESIGN" ? "contracts.md or docs/architecture.md" : "protocols.md"));
    }
    # Paths with a folder: docs/x.md, tests/peers/apiserver/README.md, ../x.md.
    while ($text =~ m{(?<![\w/.\-\$])((?:\.\.?/)*[\w.\-]+(?:/[\w.\-]+)*/[\w.\-]+\.md)\b}g) {
      my ($at, $path) = ($-[0], $1);
      (my $first = $path) =~ s{/.*}{};
      next unless $top{$first} or $first eq "docs" or $first =~ /^\.\.?$/;
      $report->($at, "names $path, which does not exist") unless defined $resolve->($f, $path);
    }
    # A citation: optional "section(s)"/"§", then numbers joined by "-", ",", "and".
    while ($text =~ m{docs/protocols\.md$sep(?:(?:sections?|§)$sep)?($num(?:$sep(?:-|,|and)$sep$num)*)}g) {
      my ($at, $list) = ($-[0], $1);
      for my $n ($list =~ /(\d+(?:\.\d+)?)/g) {
        $report->($at, "cites docs/protocols.md $n, which has no such section")
          unless $have{$n};
      }
    }
    # Sections cited by name after a document path or README.
    my $quoted = qr{"([\w`](?:[^"\n\\\\]|$cont){0,120}?)"};
    while ($text =~ m{(?<![\w/.\-"])((?:\.\.?/)*(?:[\w.\-]+/)*[\w.\-]+\.md|README)(?![\w.])$sep,?$sep\(?$quoted}g) {
      my ($at, $named, $cited) = ($-[0], $1, $2);
      my $doc = $named =~ m{^README(\.md)?$} ? "README.md" : $resolve->($f, $named);
      next unless defined $doc and -f $doc;
      $check_section->($at, $named, $doc, $cited);
    }
    next unless $md;
    # Markdown links: [text](target) and [text](target#anchor).
    while ($text =~ m{\]\(([^()\s]*)\)}g) {
      my ($at, $end, $target) = ($-[0], $+[0], $1);
      next if $target =~ m{^(?:[a-z][\w+.\-]*:|/)}i;  # URLs, absolute paths
      my ($path, $anchor) = $target =~ /^([^#]*)(?:#(.*))?$/;
      my $doc = $path eq "" ? $f : $resolve->($f, $path);
      if (!defined $doc) {
        $report->($at, "links to $path, which does not exist");
        next;
      }
      if (defined $anchor and $anchor ne "" and $doc =~ /\.md$/) {
        $load->($doc);
        $report->($at, "links to $target, which has no such heading")
          unless $anchors{$doc}{$anchor};
      }
      # [text](x.md) "Section": the section of the linked document.
      if ($doc =~ /\.md$/ and -f $doc and substr($text, $end) =~ m{\A$sep,?$sep\(?$quoted}) {
        $check_section->($at, $path, $doc, $1);
      }
    }
  }
  # docs/architecture.md lists every top-level folder.
  if (-f "docs/architecture.md") {
    open(my $fh, "<", "docs/architecture.md") or die "docs/architecture.md: $!";
    local $/; my $text = <$fh>; close $fh;
    my ($list) = $text =~ /^## Folders[^\n]*\n(.*?)(?=^## |\z)/ms;
    if (!defined $list) {
      print "docs/architecture.md: has no \"## Folders\" section listing the top-level folders\n";
      $bad = 1;
    } else {
      for my $d (sort keys %top) {
        next if index($list, "`$d/`") >= 0;
        print "docs/architecture.md: \"## Folders\" does not list the top-level folder $d/\n";
        $bad = 1;
      }
    }
  }
  exit $bad;
' "${mentioning[@]}" && status=0 || status=$?
if ((status != 0)); then
  echo "bad document references (see docs/README.md; tools/docs/rewrite_refs.sh rewrites old names)" >&2
  exit 1
fi
echo "checked ${#candidates[@]} files: every document reference resolves"
