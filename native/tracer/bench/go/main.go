// go-tracer-bench: the workloads of tracer-bench (native/tracer/bench/tracer_bench.cpp)
// written in Go, traced by Go's own tracer (runtime/trace), so that both tracers can be
// measured on the same work on the same machine (scripts/bench-tracer-vs-go.sh).
//
//	go-tracer-bench [-pairs N] [-trace-dir DIR] WORKLOAD...
//
// Workloads: jobs-1us, jobs-10us, pingpong, thread-pingpong, cost. It prints the lines
// `tracer-bench vs-go` prints, for the script to read:
//
//	pair WORKLOAD OFF ON         CPU ns per operation of an untraced and a traced run
//	trace WORKLOAD OPS FILE      a traced run written to FILE (with -trace-dir)
//	cost off|shallow|stack16 P50 P99 P999   ns per region event
//
// `go-tracer-bench -instructions WORKLOAD on|off N` runs one workload for callgrind
// (instructions.go).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
)

func main() {
	pairs := flag.Int("pairs", 9, "untraced/traced pairs of runs per workload")
	traceDir := flag.String("trace-dir", "", "also write one traced run of each workload there")
	count := flag.String("instructions", "", "WORKLOAD on|off N: one run on one P, for callgrind (see instructions.go)")
	flag.Parse()
	if *count != "" {
		n, err := strconv.Atoi(flag.Arg(1))
		if flag.NArg() != 2 || err != nil || (flag.Arg(0) != "on" && flag.Arg(0) != "off") ||
			!instructions(*count, flag.Arg(0) == "on", n) {
			fmt.Fprintln(os.Stderr, "usage: go-tracer-bench -instructions jobs|pingpong on|off N")
			os.Exit(2)
		}
		return
	}
	// The C++ workloads run on 2 workers; Go's run on 2 Ps.
	runtime.GOMAXPROCS(2)
	oneMicro := iterationsFor(1000)
	workloads := map[string]func() float64{
		"jobs-1us":        func() float64 { return shortJobs(200000, oneMicro) },
		"jobs-10us":       func() float64 { return shortJobs(20000, 10*oneMicro) },
		"pingpong":        pingpong,
		"thread-pingpong": threadPingpong,
	}
	for _, name := range flag.Args() {
		if name == "cost" {
			eventCosts()
			continue
		}
		run, ok := workloads[name]
		if !ok {
			fmt.Fprintf(os.Stderr, "go-tracer-bench: unknown workload %q\n", name)
			os.Exit(2)
		}
		for _, p := range overhead(run, *pairs) {
			fmt.Printf("pair %s %.1f %.1f\n", name, p.off, p.on)
		}
		if *traceDir != "" {
			file := filepath.Join(*traceDir, "go-"+name+".trace")
			ops, err := traceToFile(run, file)
			if err != nil {
				fmt.Fprintln(os.Stderr, "go-tracer-bench:", err)
				os.Exit(1)
			}
			fmt.Printf("trace %s %.0f %s\n", name, ops, file)
		}
	}
}
