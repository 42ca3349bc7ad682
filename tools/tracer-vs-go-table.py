#!/usr/bin/env python3
"""The table of scripts/bench-tracer-vs-go.sh, from its raw lines (BUILD_DIR/tracer-vs-go.results):

  ROUND LANG pair WORKLOAD OFF ON          CPU ns per operation, untraced and traced
  ROUND LANG cost off|shallow|stack16 P50 P99 P999
  ROUND LANG events WORKLOAD OPS EVENTS BYTES  a traced run, read back by gotrace stats

Overheads are medians over all pairs; brackets hold the range of the rounds' medians.
Events per operation and bytes per event are medians over the rounds' traced runs.
Goals (per workload, against Go's tracer in the same run): CPU overhead per operation at
most Go's, cost per event at most half of Go's, bytes per event at most Go's.
"""
import statistics
import sys
from collections import defaultdict

WORKLOADS = [
    ("jobs-1us", "~1 µs jobs"),
    ("jobs-10us", "~10 µs jobs"),
    ("pingpong", "channel / coroutine ping-pong"),
    ("thread-pingpong", "thread ping-pong (Go: locked threads, mutex+cond, 2 P)"),
]
LANGS = ("go", "cpp")


def main(path):
    pairs = defaultdict(list)  # (lang, workload) -> [(round, off, on)]
    costs = defaultdict(list)  # (lang, kind) -> [(p50, p99)]
    runs = defaultdict(list)  # (lang, workload) -> [(ops, events, bytes)]
    events = {}  # (lang, workload) -> (1, events per op, bytes per event): medians
    for line in open(path):
        if line.startswith("machine:"):
            print("# " + line.strip())
            continue
        f = line.split()
        if len(f) < 3:
            continue
        rnd, lang, kind = f[0], f[1], f[2]
        if kind == "pair":
            pairs[lang, f[3]].append((rnd, float(f[4]), float(f[5])))
        elif kind == "cost":
            costs[lang, f[3]].append((float(f[4]), float(f[5])))
        elif kind == "events":
            runs[lang, f[3]].append((float(f[4]), float(f[5]), float(f[6])))
    # The traced runs' medians: events per operation and bytes per event vary with where
    # generations end and how often workers park.
    for key, v in runs.items():
        events[key] = (1.0, statistics.median(e / o for o, e, _ in v), statistics.median(b / e for _, e, b in v))

    def overhead(lang, w):
        ps = pairs.get((lang, w))
        if not ps:
            return None
        pct = statistics.median(100 * (on / off - 1) for _, off, on in ps)
        added = statistics.median(on - off for _, off, on in ps)
        base = statistics.median(off for _, off, _ in ps)
        by_round, added_by_round = defaultdict(list), defaultdict(list)
        for r, off, on in ps:
            by_round[r].append(100 * (on / off - 1))
            added_by_round[r].append(on - off)
        meds = [statistics.median(v) for v in by_round.values()]
        added_meds = [statistics.median(v) for v in added_by_round.values()]
        per_op = events[lang, w][1] / events[lang, w][0] if (lang, w) in events else None
        return dict(pct=pct, added=added, base=base, lo=min(meds), hi=max(meds), per_op=per_op,
                    per_event=added / per_op if per_op else None,
                    event_lo=min(added_meds) / per_op if per_op else None,
                    event_hi=max(added_meds) / per_op if per_op else None, n=len(ps))

    def verdict(ok, ours=None, limit=None):
        """Met or missed; a miss whose rounds overlap the limit's is within the machine's noise."""
        if ok:
            return "met"
        if ours and limit and ours[0] <= limit[1]:
            return "missed, within the rounds' spread"
        return "**missed**"

    goals = []
    print("| workload (CPU time per operation) | Go's tracer | C++ tracer | C++ / Go |")
    print("|---|---|---|---|")
    for w, title in WORKLOADS:
        o = {lang: overhead(lang, w) for lang in LANGS}
        if not all(o.values()):
            continue
        cells = []
        for lang in LANGS:
            x = o[lang]
            ev = f", {x['per_op']:.1f} events/op, {x['per_event']:.0f} ns/event" if x["per_op"] else ""
            cells.append(f"{x['pct']:+.1f}% [{x['lo']:+.1f}..{x['hi']:+.1f}] "
                         f"({x['added']:.0f} ns/op added to {x['base']:.0f}{ev})")
        go, cpp = o["go"], o["cpp"]
        ratio = f"{cpp['pct'] / go['pct']:.2f}" if go["pct"] > 0 else "n/a"
        if go["per_event"] and cpp["per_event"]:
            ratio += f" (per event {cpp['per_event'] / go['per_event']:.2f})"
        goals.append((f"{w}: CPU overhead per op ≤ Go's", f"{cpp['pct']:+.1f}% vs {go['pct']:+.1f}%",
                      verdict(cpp["pct"] <= go["pct"], (cpp["lo"], cpp["hi"]), (go["lo"], go["hi"]))))
        if go["per_event"] and cpp["per_event"]:
            goals.append((f"{w}: cost per event ≤ half of Go's",
                          f"{cpp['per_event']:.0f} vs {go['per_event']:.0f} ns "
                          f"[{cpp['event_lo']:.0f}..{cpp['event_hi']:.0f} vs {go['event_lo']:.0f}..{go['event_hi']:.0f}]",
                          verdict(cpp["per_event"] <= go["per_event"] / 2, (cpp["event_lo"], cpp["event_hi"]),
                                  (go["event_lo"] / 2, go["event_hi"] / 2))))
        print(f"| {title} | {cells[0]} | {cells[1]} | {ratio} |")
    for kind, title in [("shallow", "one region event: no stack (C++) vs Go's shallow stack"),
                        ("stack16", "one event with a 16-frame stack"), ("off", "a call with tracing off")]:
        c = {lang: costs.get((lang, kind)) for lang in LANGS}
        if not all(c.values()):
            continue
        med = {lang: (statistics.median(p for p, _ in c[lang]), statistics.median(q for _, q in c[lang]),
                      min(p for p, _ in c[lang]), max(p for p, _ in c[lang])) for lang in LANGS}
        cells = [f"{m[0]:.1f} ns [{m[2]:.1f}..{m[3]:.1f}] (p99 {m[1]:.1f})" for m in (med["go"], med["cpp"])]
        r = med["cpp"][0] / med["go"][0]
        print(f"| {title} | {cells[0]} | {cells[1]} | {r:.2f} |")
        if kind != "off":
            goals.append((f"{kind} region event: cost ≤ half of Go's", f"{med['cpp'][0]:.1f} vs {med['go'][0]:.1f} ns",
                          verdict(r <= 0.5)))
    bpe = {}
    for w, _ in WORKLOADS:
        if all((lang, w) in events for lang in LANGS):
            bpe[w] = {lang: events[lang, w][2] for lang in LANGS}
    if bpe:
        go_b = " / ".join(f"{v['go']:.2f}" for v in bpe.values())
        cpp_b = " / ".join(f"{v['cpp']:.2f}" for v in bpe.values())
        ratios = " / ".join(f"{v['cpp'] / v['go']:.2f}" for v in bpe.values())
        print(f"| bytes/event: {' / '.join(bpe)} | {go_b} | {cpp_b} | {ratios} |")
        # The sides write different events for the same work (Go's locked threads add a
        # ProcStart and ProcStop to each wakeup): the trace's size per operation compares them.
        bpo = {w: {lang: statistics.median(b / o for o, _, b in runs[lang, w]) for lang in LANGS} for w in bpe}
        go_o = " / ".join(f"{v['go']:.1f}" for v in bpo.values())
        cpp_o = " / ".join(f"{v['cpp']:.1f}" for v in bpo.values())
        ratios_o = " / ".join(f"{v['cpp'] / v['go']:.2f}" for v in bpo.values())
        print(f"| bytes/operation: {' / '.join(bpo)} | {go_o} | {cpp_o} | {ratios_o} |")
        for w, v in bpe.items():
            goals.append((f"{w}: bytes per event ≤ Go's", f"{v['cpp']:.2f} vs {v['go']:.2f}",
                          verdict(v["cpp"] <= v["go"])))
    print()
    print("| goal | C++ vs Go | verdict |")
    print("|---|---|---|")
    for g in goals:
        print("| " + " | ".join(g) + " |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build/tracer-vs-go.results")
