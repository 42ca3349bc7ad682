#!/usr/bin/env bash
# Checks `gotrace dump --go=1.23` on the 94 MB corpus trace against Go 1.23's reference hash. Go's dump
# of this trace is ~10.7 GB, so only its hash is kept. Go orders events with equal
# timestamps differently from run to run, so when the raw hashes differ this compares
# canonical forms (../shared/tools/canon-dump's rule) with Go's own dump, made here
# with the Go oracle (../shared/tools/install-go-oracle.sh), if it is installed.
#   scripts/check-large-dump.sh [WORK_DIR]     (needs ~25 GB free in WORK_DIR for the Go comparison)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${GOTRACE_SHARED_DIR:-$root/../shared}
work=${1:-$root/build/large-check}
mkdir -p "$work"
"$root/scripts/build-native.sh" "$root/build" >/dev/null
gotrace=$root/build/native/cli/gotrace
canon=$root/build/tools/canon-dump
trace=$work/go123-workload-large.trace
[ -f "$trace" ] || zstd -d -q -f "$shared/corpus/go/go123-workload-large.trace.zst" -o "$trace"
read -r ref_hash ref_lines ref_bytes < "$shared/corpus/go/go123-workload-large.trace.godump.sha256"

echo "reference: sha256 $ref_hash, $ref_lines lines, $ref_bytes bytes"
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
