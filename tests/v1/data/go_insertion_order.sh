#!/bin/bash
# Regenerates go_insertion_order.txt: for each 1.11-1.21 corpus trace, the FNV-1a 64 hash,
# line count and byte count of Go 1.23's `go tool trace -d=1` output when Go's parser
# scans the Ps in a fixed order instead of its map's random one.
#
# Go's old-trace reader puts the Ps into its scan list by ranging over a map
# (parseEventBatches: `for pid := range p.batchOffsets`), and the converter emits the
# goroutines that existed before tracing began by ranging over another
# (`for gid := range it.createdPreInit`). Both orders are random from run to run, and
# the first decides the order of events with equal times, so Go's own dump of a v1 trace
# changes from run to run in a few lines. This script builds `go tool trace` with both
# loops in insertion order (each P in order of its first batch; goroutines in order of
# creation), which is the order gotrace uses; everything else is Go's code unchanged.
# Needs Go 1.23 at /usr/lib/go-1.23 (scripts/install-go-oracle.sh or shared/tools).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
corpus=${1:-$here/../../../../shared/corpus/go}
src=/usr/lib/go-1.23/src/internal/trace
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src/internal/oldtrace/parser.go" "$work/parser.go"
cp "$src/oldtrace.go" "$work/oldtrace.go"
python3 - "$work" <<'PY'
import sys
w = sys.argv[1]
def edit(name, pairs):
    s = open(f"{w}/{name}").read()
    for old, new in pairs:
        assert old in s, (name, old)
        s = s.replace(old, new, 1)
    open(f"{w}/{name}", "w").write(s)
edit("parser.go", [
    ("type parser struct {", "type parser struct {\n\tpidOrder []int32"),
    ("\tfor pid := range p.batchOffsets {\n\t\tallProcs = append(allProcs, proc{pid: pid})",
     "\tfor _, pid := range p.pidOrder {\n\t\tallProcs = append(allProcs, proc{pid: pid})"),
    ("\t\t\tbo := batchOffset{offset: raw.batchOffset}\n",
     "\t\t\tbo := batchOffset{offset: raw.batchOffset}\n\t\t\tif _, ok := p.batchOffsets[raw.batchPid]; !ok {\n\t\t\t\tp.pidOrder = append(p.pidOrder, raw.batchPid)\n\t\t\t}\n"),
])
edit("oldtrace.go", [
    ("\tcreatedPreInit map[GoID]struct{}\n", "\tcreatedPreInit map[GoID]struct{}\n\tpreInitOrder   []GoID\n"),
    ("\t\t\tfor gid := range it.createdPreInit {\n",
     "\t\t\tfor _, gid := range it.preInitOrder {\n\t\t\t\tif _, ok := it.createdPreInit[gid]; !ok {\n\t\t\t\t\tcontinue\n\t\t\t\t}\n\t\t\t\tdelete(it.createdPreInit, gid)\n"),
    ("\t\t\tit.createdPreInit[GoID(ev.Args[0])] = struct{}{}\n",
     "\t\t\tit.createdPreInit[GoID(ev.Args[0])] = struct{}{}\n\t\t\tit.preInitOrder = append(it.preInitOrder, GoID(ev.Args[0]))\n"),
])
PY
printf '{"Replace":{"%s":"%s","%s":"%s"}}\n' "$src/internal/oldtrace/parser.go" "$work/parser.go" \
  "$src/oldtrace.go" "$work/oldtrace.go" > "$work/overlay.json"
(cd /usr/lib/go-1.23/src && GOTOOLCHAIN=local /usr/lib/go-1.23/bin/go build -overlay "$work/overlay.json" -o "$work/trace" cmd/trace)
out=$here/go_insertion_order.txt
echo "# name fnv1a64 lines bytes: Go 1.23 go tool trace -d=1, Ps scanned in first-batch order (go_insertion_order.sh)" > "$out"
for f in "$corpus"/go119-workload.trace "$corpus"/go121-workload.trace "$corpus"/*_1_11_*.trace \
         "$corpus"/*_1_19_*.trace "$corpus"/*_1_21_*.trace; do
  name=$(basename "$f" .trace)
  "$work/trace" -d=1 "$f" > "$work/dump" 2>&1 || true
  python3 - "$name" "$work/dump" >> "$out" <<'PY'
import sys
data = open(sys.argv[2], "rb").read()
h = 0xcbf29ce484222325
for b in data:
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
lines = data.count(b"\n")
print(f"{sys.argv[1]} {h:016x} {lines} {len(data)}")
PY
done
cat "$out"
