package main

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// compute is a fixed amount of computation (not of time: preemption must not shorten a
// job), the same loop as tracer-bench's.
//
//go:noinline
func compute(iterations, seed uint64) uint64 {
	x := seed | 1
	for i := uint64(0); i < iterations; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// iterationsFor is the iterations of compute that take `ns` here, from the fastest of
// several timings.
func iterationsFor(ns float64) uint64 {
	n := uint64(1 << 20)
	best := 1e18
	for i := 0; i < 7; i++ {
		t0 := time.Now()
		sink.Add(compute(n, 1))
		best = min(best, float64(time.Since(t0).Nanoseconds()))
	}
	return uint64(float64(n) * ns / best)
}

var sink atomic.Uint64

// shortJobs: `jobs` goroutines of `iterations` each, started by one goroutine that
// yields every 64, on 2 Ps (tracer-bench's jobs on the scheduler example's 2 workers).
func shortJobs(jobs int, iterations uint64) float64 {
	var wg sync.WaitGroup
	wg.Add(jobs)
	go func() {
		for i := 0; i < jobs; i++ {
			go func(i int) {
				sink.Add(compute(iterations, uint64(i)))
				wg.Done()
			}(i)
			if i%64 == 63 {
				runtime.Gosched()
			}
		}
	}()
	wg.Wait()
	return float64(jobs)
}

// pingpong: two goroutines pass a value back and forth over unbuffered channels
// (the scheduler example's ping-pong): round trips.
func pingpong() float64 { return pingpongRounds(500000) }

func pingpongRounds(rounds int) float64 {
	toPong, toPing := make(chan int), make(chan int)
	done := make(chan int)
	go func() {
		for v := range toPong {
			toPing <- v
		}
	}()
	go func() {
		pongs := 0
		for i := 0; i < rounds; i++ {
			toPong <- i
			<-toPing
			pongs++
		}
		close(toPong)
		done <- pongs
	}()
	return float64(<-done)
}

// threadPingpong: two goroutines locked to their OS threads pass a token through a
// mutex and two condition variables (tracer-bench's two threads): round trips.
func threadPingpong() float64 {
	const rounds = 20000
	var mu sync.Mutex
	toPong, toPing := sync.NewCond(&mu), sync.NewCond(&mu)
	turn := 0 // 0: ping's turn, 1: pong's
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		for i := 0; i < rounds; i++ {
			mu.Lock()
			for turn != 1 {
				toPong.Wait()
			}
			turn = 0
			toPing.Signal()
			mu.Unlock()
		}
		done <- struct{}{}
	}()
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		for i := 0; i < rounds; i++ {
			mu.Lock()
			turn = 1
			toPong.Signal()
			for turn != 0 {
				toPing.Wait()
			}
			mu.Unlock()
		}
		done <- struct{}{}
	}()
	<-done
	<-done
	return rounds
}
