#!/usr/bin/env bash
# Checks `gotrace dump` on the 94 MB corpus trace against Go's listing of it, which is too
# large to keep (Go 1.27's is 249 M lines, ~10.4 GB), by hash:
#   - Go 1.27's `go tool trace -d=parsed` (what `gotrace dump` prints): the sha256 of its
#     canonical form (tools/canon_dump.cpp: clusters of events < 8 ns apart as sorted sets,
#     since Go orders tied events differently from run to run), computed with the oracle
#     of ../shared/tools/install-go-newest.sh:
#       tracedump FILE | build/tools/canon-dump | sha256sum
#   - with --go=1.23, Go 1.23's `go tool trace -d=1` (`gotrace dump --go=1.23`): the raw
#     hash kept in ../shared (stdout and stderr, then `exit=N`); when the raw hashes differ,
#     canonical forms are compared with Go 1.23's own dump, made here if the Go 1.23
#     oracle (../shared/tools/install-go-oracle.sh) is installed.
#   scripts/check-large-dump.sh [--go=1.23] [WORK_DIR]   (--go=1.23's comparison needs ~25 GB free in WORK_DIR)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${GOTRACE_SHARED_DIR:-$root/../shared}
go=1.27
if [ "${1:-}" = "--go=1.23" ]; then go=1.23; shift; fi
work=${1:-$root/build/large-check}
mkdir -p "$work"
"$root/scripts/build-native.sh" "$root/build" >/dev/null
cmake --build "$root/build" --target canon-dump >/dev/null
gotrace=$root/build/native/cli/gotrace
canon=$root/build/tools/canon-dump
trace=$work/go123-workload-large.trace
[ -f "$trace" ] || zstd -d -q -f "$shared/corpus/go/go123-workload-large.trace.zst" -o "$trace"

if [ "$go" = "1.27" ]; then
  # Go 1.27.4's tracedump, run on this file: 249,410,623 lines, exit status 0.
  ref_canon=454bb04a1807f8a6edcb10af250030a87d07af3f8ebdf698727e444a20e7f07a
  ref_lines=249410623
  echo "reference (Go 1.27): canonical sha256 $ref_canon, $ref_lines lines, exit 0"
  start=$(date +%s.%N)
  set +o pipefail
  our_canon=$( { "$gotrace" dump "$trace"; echo $? > "$work/ours.rc"; } | tee >(wc -l > "$work/ours.lines") |
    "$canon" | sha256sum | cut -d' ' -f1)
  set -o pipefail
  sleep 1
  read -r lines < "$work/ours.lines"
  rc=$(cat "$work/ours.rc")
  echo "gotrace:             canonical sha256 $our_canon, $lines lines, exit $rc ($(printf '%.0f' "$(echo "$(date +%s.%N) - $start" | bc)") s with the canonical form)"
  if [ "$our_canon" = "$ref_canon" ] && [ "$lines" = "$ref_lines" ] && [ "$rc" = 0 ]; then
    echo "RESULT: equal to Go 1.27's listing up to the order of tied events (canonical forms agree)"
    exit 0
  fi
  echo "RESULT: differs from Go 1.27's listing"
  exit 1
fi

read -r ref_hash ref_lines ref_bytes < "$shared/corpus/go/go123-workload-large.trace.godump.sha256"
echo "reference (Go 1.23): sha256 $ref_hash, $ref_lines lines, $ref_bytes bytes"
ours=$( { "$gotrace" dump --go=1.23 "$trace"; echo "exit=$?"; } | tee >(wc -lc > "$work/ours.wc") | sha256sum | cut -d' ' -f1)
sleep 1
read -r lines bytes < "$work/ours.wc"
echo "gotrace:   sha256 $ours, $lines lines, $bytes bytes"
if [ "$ours" = "$ref_hash" ]; then
  echo "RESULT: identical to Go's reference dump"
  exit 0
fi
[ "$lines" = "$ref_lines" ] && [ "$bytes" = "$ref_bytes" ] || { echo "RESULT: differs in size"; exit 1; }

go=/usr/lib/go-1.23/bin/go
if ! [ -x "$go" ]; then
  echo "RESULT: same size, different bytes (tie order?); install the Go oracle to compare canonical forms"
  exit 2
fi
echo "raw hashes differ: comparing canonical forms with Go 1.23's own dump of the same file"
"$go" tool trace -d=1 "$trace" > "$work/go.dump" 2>&1 && echo "exit=0" >> "$work/go.dump" || echo "exit=$?" >> "$work/go.dump"
go_hash=$(sha256sum < "$work/go.dump" | cut -d' ' -f1)
echo "go (this run): sha256 $go_hash $( [ "$go_hash" = "$ref_hash" ] && echo '(= reference)' || echo '(≠ reference: Go itself orders ties differently from run to run)')"
go_canon=$("$canon" < "$work/go.dump" | sha256sum | cut -d' ' -f1)
our_canon=$( { "$gotrace" dump --go=1.23 "$trace"; echo "exit=$?"; } | "$canon" | sha256sum | cut -d' ' -f1)
rm -f "$work/go.dump"
echo "canonical: go $go_canon"
echo "canonical: gotrace $our_canon"
if [ "$go_canon" = "$our_canon" ]; then
  echo "RESULT: equal up to the order of tied events (canonical forms agree)"
else
  echo "RESULT: canonical forms differ"
  exit 1
fi
