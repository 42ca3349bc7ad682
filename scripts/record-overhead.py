#!/usr/bin/env python3
"""gotrace-record's overhead on programs from Debian, traced against untraced.

Each workload runs in pairs, one run untraced and one under gotrace-record, alternating
which goes first; the figures are medians over the pairs of the traced run's slowdown,
in wall time and in CPU time (user + system of the process and everything it waited
for), with the trace's events and bytes. A benchmark: it prints figures, it checks
nothing.

  scripts/record-overhead.py [--pairs N] [--build BUILD_DIR] [WORKLOAD...]

Workloads: xz (xz -T2, two compressing threads handing blocks over with mutexes and
condition variables), sort (sort --parallel=2), dd (600,000 reads and writes of 4 KiB,
each a traced system call), true (a process that does nothing: the recorder's fixed
cost), server (Python's http.server, a thread per connection, answering 3,000
requests over loopback; its CPU time only), make (make -j2 of a small C++ project,
every process traced: gotrace-record --children).
"""
import argparse
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CXX_SOURCE = """#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>
std::string unit_{n}(const std::vector<std::string>& words) {{
  std::map<std::string, int> counts;
  for (const auto& w : words) counts[w]++;
  std::vector<std::pair<int, std::string>> order;
  for (const auto& [w, c] : counts) order.emplace_back(c, w);
  std::sort(order.rbegin(), order.rend());
  std::ostringstream out;
  for (const auto& [c, w] : order) out << w << ' ' << c << '\\n';
  return out.str();
}}
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare(work):
    """The inputs: 24 MB of the system's shared libraries, 1.5 million lines of words,
    a C++ project of eight files."""
    blob = os.path.join(work, "libraries.bin")
    with open(blob, "wb") as out:
        left = 24_000_000
        libdir = "/usr/lib/x86_64-linux-gnu"
        for name in sorted(os.listdir(libdir)):
            path = os.path.join(libdir, name)
            if ".so" not in name or not os.path.isfile(path) or left <= 0:
                continue
            with open(path, "rb") as f:
                data = f.read(left)
            out.write(data)
            left -= len(data)
    rng = random.Random(1)
    words = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(3, 9))) for _ in range(5000)]
    text = os.path.join(work, "words.txt")
    with open(text, "w") as out:
        for _ in range(1_500_000):
            out.write(" ".join(rng.choice(words) for _ in range(2)) + "\n")
    project = os.path.join(work, "project")
    os.makedirs(project, exist_ok=True)
    units = []
    for n in range(8):
        with open(os.path.join(project, f"unit{n}.cpp"), "w") as f:
            f.write(CXX_SOURCE.format(n=n))
        units.append(f"unit{n}.o")
    with open(os.path.join(project, "Makefile"), "w") as f:
        f.write(f"all: {' '.join(units)}\n%.o: %.cpp\n\tg++ -std=c++17 -O1 -c $< -o $@\n"
                f"clean:\n\trm -f *.o\n")
    return {
        "xz": (["xz", "-T2", "-3", "--block-size=1MiB", "-c", blob], None, False),
        "sort": (["sort", "--parallel=2", "-S", "64M", text], None, False),
        "server": (["serve", "/usr/bin/python3", "-m", "http.server", "-d", project, "-b", "127.0.0.1",
                    str(free_port())], None, False),
        "dd": (["dd", "if=/dev/zero", "of=/dev/null", "bs=4k", "count=300000", "status=none"], None, False),
        "true": (["true"], None, False),
        "make": (["make", "-s", "-j2", "-C", project], ["make", "-s", "-C", project, "clean"], True),
    }


SERVER_REQUESTS = 3000


def serve_requests(cmd):
    """Starts the HTTP server `cmd` (its last argument the port), sends it SERVER_REQUESTS
    requests over loopback, one connection each, ends it with SIGTERM; its stderr."""
    port = int(cmd[-1])
    log = tempfile.TemporaryFile(mode="w+")  # (its log of every request would fill a pipe)
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, text=True)
    for _ in range(500):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.01)
    for _ in range(SERVER_REQUESTS):
        with socket.create_connection(("127.0.0.1", port)) as c:
            c.sendall(b"GET / HTTP/1.0\r\n\r\n")
            while c.recv(65536):
                pass
    p.send_signal(signal.SIGTERM)
    p.wait()
    log.seek(0)
    err = log.read()
    return p.returncode in (0, -signal.SIGTERM, 128 + signal.SIGTERM), err


def run(cmd, launcher, trace, children):
    """Runs cmd (traced when launcher is given); wall seconds, CPU seconds, stderr."""
    server = cmd[0] == "serve"
    if server:
        cmd = cmd[1:]
    if launcher:
        cmd = [launcher, "-o", trace] + (["--children"] if children else []) + ["--"] + cmd
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    if server:
        ok, err = serve_requests(cmd)
        p = subprocess.CompletedProcess(cmd, 0 if ok else 1, None, err)
    else:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.stderr


def trace_figures(stderr):
    """Events, bytes and traces from the recorder's summary lines."""
    events = bytes_ = traces = 0
    for m in re.finditer(r"gotrace-record: wrote .*?: (\d+) events, ([0-9.]+) MB", stderr):
        events += int(m.group(1))
        bytes_ += float(m.group(2)) * 1e6
        traces += 1
    return events, bytes_, traces


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("workloads", nargs="*", default=["xz", "sort", "dd", "true", "server", "make"])
    args = ap.parse_args()
    launcher = os.path.join(args.build, "native", "tracer", "gotrace-record")
    if not os.access(launcher, os.X_OK):
        sys.exit(f"{launcher} is missing: build the tree first")
    work = tempfile.mkdtemp(prefix="gotrace-record-overhead-")
    try:
        workloads = prepare(work)
        print(f"{'workload':<8} {'untraced wall/cpu s':>20} {'traced wall/cpu s':>18} {'wall':>8} {'cpu':>8}"
              f" {'events':>9} {'MB':>6} {'traces':>6} {'ns/event (cpu)':>15}")
        for name in args.workloads:
            cmd, clean, children = workloads[name]
            if clean:
                run(clean, None, None, False)
            run(cmd, None, None, False)  # warm the page cache
            if clean:
                run(clean, None, None, False)
            plain, traced, wall_ratio, cpu_ratio, added = [], [], [], [], []
            events = bytes_ = traces = 0
            for i in range(args.pairs):
                pair = {}
                for mode in (("plain", "traced") if i % 2 == 0 else ("traced", "plain")):
                    trace = os.path.join(work, f"{name}.trace")
                    for f in os.listdir(work):
                        if f.startswith(f"{name}.trace"):
                            os.remove(os.path.join(work, f))
                    pair[mode] = run(cmd, launcher if mode == "traced" else None, trace, children)
                    if clean:
                        run(clean, None, None, False)
                (pw, pc, _), (tw, tc, err) = pair["plain"], pair["traced"]
                events, bytes_, traces = trace_figures(err)
                plain.append((pw, pc))
                traced.append((tw, tc))
                wall_ratio.append(tw / pw - 1)
                cpu_ratio.append(tc / pc - 1)
                added.append((tc - pc) / events * 1e9 if events else float("nan"))
            med = statistics.median
            print(f"{name:<8} {med(p[0] for p in plain):>9.2f}/{med(p[1] for p in plain):<10.2f}"
                  f" {med(t[0] for t in traced):>8.2f}/{med(t[1] for t in traced):<9.2f}"
                  f" {med(wall_ratio) * 100:>+7.1f}% {med(cpu_ratio) * 100:>+7.1f}%"
                  f" {events:>9} {bytes_ / 1e6:>6.2f} {traces:>6} {med(added):>15.0f}")
            print(f"{'':<8} cpu slowdown by pair: " + " ".join(f"{r * 100:+.1f}%" for r in cpu_ratio))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
