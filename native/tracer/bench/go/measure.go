package main

import (
	"io"
	"os"
	"runtime/trace"
	"syscall"
	"unsafe"
)

// cpuSeconds is the process's CPU time: all its threads, the tracer's own included.
func cpuSeconds() float64 {
	const clockProcessCPUTimeID = 2
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return float64(ts.Sec) + float64(ts.Nsec)*1e-9
}

type pair struct{ off, on float64 } // CPU ns per operation

// overhead runs `run` (the same work each time; it returns how many operations it did)
// in pairs, one untraced and one traced, in alternating order, after a warm-up run, as
// tracer-bench does. Tracing starts before and stops after the measured span, so the
// tracer's start and stop are not counted, on either side.
func overhead(run func() float64, pairs int) []pair {
	once := func(traced bool) float64 {
		if traced {
			if err := trace.Start(io.Discard); err != nil {
				panic(err)
			}
		}
		c0 := cpuSeconds()
		n := run()
		c := cpuSeconds() - c0
		if traced {
			trace.Stop()
		}
		return c / n * 1e9
	}
	once(false)
	var out []pair
	for i := 0; i < pairs; i++ {
		onFirst := i%2 == 1
		a := once(onFirst)
		b := once(!onFirst)
		if onFirst {
			a, b = b, a
		}
		out = append(out, pair{off: a, on: b})
	}
	return out
}

// traceToFile runs `run` once traced into `file`; it returns the operations done.
func traceToFile(run func() float64, file string) (float64, error) {
	f, err := os.Create(file)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if err := trace.Start(f); err != nil {
		return 0, err
	}
	n := run()
	trace.Stop()
	return n, f.Close()
}
