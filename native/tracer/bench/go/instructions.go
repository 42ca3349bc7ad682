package main

import (
	"io"
	"runtime"
	"runtime/trace"
)

// instructions runs `n` operations of a workload on one P, traced or not, for an
// instruction count under callgrind (tracer-instructions' workloads, in Go):
//
//	jobs      n empty goroutines started by one goroutine that yields every 64;
//	pingpong  n round trips between two goroutines over unbuffered channels.
//
// scripts/bench-tracer-vs-go.sh -i compares runs of n and 2n operations, as
// scripts/tracer-instructions.sh does for tracer-instructions.
func instructions(workload string, traced bool, n int) bool {
	runtime.GOMAXPROCS(1)
	var run func()
	switch workload {
	case "jobs":
		run = func() { emptyJobs(n) }
	case "pingpong":
		run = func() { pingpongRounds(n) }
	default:
		return false
	}
	if traced {
		if err := trace.Start(io.Discard); err != nil {
			panic(err)
		}
	}
	run()
	if traced {
		trace.Stop()
	}
	return true
}

func emptyJobs(n int) {
	done := make(chan struct{})
	left := n
	go func() {
		for i := 0; i < n; i++ {
			go func() {
				// One P: the jobs never run at once.
				left--
				if left == 0 {
					close(done)
				}
			}()
			if i%64 == 63 {
				runtime.Gosched()
			}
		}
	}()
	<-done
}
