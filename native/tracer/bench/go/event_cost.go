package main

import (
	"context"
	"fmt"
	"io"
	"runtime/trace"
	"sort"
	"time"
)

const batch = 32 // region begin/end pairs per timed sample: 64 events

// timeEvents appends the cost of one event, from timing batches of 64 (as tracer-bench).
//
//go:noinline
func timeEvents(out []float64, samples int) []float64 {
	ctx := context.Background()
	for s := 0; s < samples; s++ {
		t0 := time.Now()
		for i := 0; i < batch; i++ {
			trace.StartRegion(ctx, "bench").End()
		}
		out = append(out, float64(time.Since(t0).Nanoseconds())/(2*batch))
	}
	return out
}

// deep calls timeEvents n frames further down.
//
//go:noinline
func deep(n int, out []float64, samples int) []float64 {
	if n == 0 {
		return timeEvents(out, samples)
	}
	r := deep(n-1, out, samples)
	return r
}

type percentiles struct{ p50, p99, p999 float64 }

func percentilesOf(v []float64) percentiles {
	sort.Float64s(v)
	at := func(q float64) float64 { return v[min(len(v)-1, int(q*float64(len(v))))] }
	return percentiles{at(0.50), at(0.99), at(0.999)}
}

// eventCost is the best of 5 runs of 40000 batches, `frames` calls down (tracer-bench's
// event_cost): other work on the machine only ever adds time.
func eventCost(traced bool, frames int) percentiles {
	best := percentiles{1e9, 1e9, 1e9}
	for run := 0; run < 5; run++ {
		if traced {
			if err := trace.Start(io.Discard); err != nil {
				panic(err)
			}
		}
		var v []float64
		if frames == 0 {
			timeEvents(nil, 2000)
			v = timeEvents(nil, 40000)
		} else {
			deep(frames, nil, 2000)
			v = deep(frames, nil, 40000)
		}
		if traced {
			trace.Stop()
		}
		p := percentilesOf(v)
		best = percentiles{min(best.p50, p.p50), min(best.p99, p.p99), min(best.p999, p.p999)}
	}
	return best
}

// eventCosts: a call with tracing off, one region event with Go's shallowest stack (the
// C++ tracer's has none), and one with a 16-frame stack (14 calls of deep, as
// tracer-bench's deep<14>, and timeEvents).
func eventCosts() {
	for _, c := range []struct {
		name   string
		traced bool
		frames int
	}{{"off", false, 14}, {"shallow", true, 0}, {"stack16", true, 14}} {
		p := eventCost(c.traced, c.frames)
		fmt.Printf("cost %s %.2f %.2f %.2f\n", c.name, p.p50, p.p99, p.p999)
	}
}
