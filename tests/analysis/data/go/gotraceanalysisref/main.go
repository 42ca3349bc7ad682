// Dev tool for gotrace's analysis tests: Go's summaries, tasks and MMU as JSON.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"internal/trace"
	"io"
	"os"
	"sort"
	"time"
)

type regionOut struct {
	Task  uint64           `json:"task"`
	Name  string           `json:"name"`
	Start int64            `json:"start"`
	End   int64            `json:"end"`
	Stats map[string]int64 `json:"stats"`
}
type gOut struct {
	ID       int64            `json:"id"`
	Name     string           `json:"name"`
	PC       uint64           `json:"pc"`
	Creation int64            `json:"creation"`
	Start    int64            `json:"start"`
	End      int64            `json:"end"`
	Stats    map[string]int64 `json:"stats"`
	Regions  []regionOut      `json:"regions"`
}
type tOut struct {
	ID         uint64  `json:"id"`
	Name       string  `json:"name"`
	Parent     uint64  `json:"parent"`
	Start      int64   `json:"start"`
	End        int64   `json:"end"`
	Complete   bool    `json:"complete"`
	Logs       int     `json:"logs"`
	Regions    int     `json:"regions"`
	Goroutines []int64 `json:"goroutines"`
}

func stats(s trace.GoroutineExecStats) map[string]int64 {
	m := map[string]int64{"exec": int64(s.ExecTime), "sched_wait": int64(s.SchedWaitTime), "syscall": int64(s.SyscallTime), "syscall_block": int64(s.SyscallBlockTime), "total": int64(s.TotalTime)}
	for k, v := range s.BlockTimeByReason {
		m["block:"+k] = int64(v)
	}
	for k, v := range s.RangeTime {
		m["range:"+k] = int64(v)
	}
	return m
}
func t(ev *trace.Event) int64 {
	if ev == nil {
		return 0
	}
	return int64(ev.Time())
}

func main() {
	data, _ := os.ReadFile(os.Args[1])
	r, err := trace.NewReader(bytes.NewReader(data))
	out := map[string]any{}
	var events []trace.Event
	errs := ""
	if err != nil {
		errs = err.Error()
	} else {
		for {
			ev, err := r.ReadEvent()
			if err == io.EOF {
				break
			}
			if err != nil {
				errs = err.Error()
				break
			}
			events = append(events, ev)
		}
	}
	out["error"] = errs
	out["events"] = len(events)
	s := trace.NewSummarizer()
	for i := range events {
		s.Event(&events[i])
	}
	sum := s.Finalize()
	var gs []gOut
	for _, g := range sum.Goroutines {
		o := gOut{ID: int64(g.ID), Name: g.Name, PC: g.PC, Creation: int64(g.CreationTime), Start: int64(g.StartTime), End: int64(g.EndTime), Stats: stats(g.GoroutineExecStats)}
		for _, r := range g.Regions {
			o.Regions = append(o.Regions, regionOut{uint64(r.TaskID), r.Name, t(r.Start), t(r.End), stats(r.GoroutineExecStats)})
		}
		gs = append(gs, o)
	}
	sort.Slice(gs, func(i, j int) bool { return gs[i].ID < gs[j].ID })
	out["goroutines"] = gs
	var ts []tOut
	for _, tk := range sum.Tasks {
		o := tOut{ID: uint64(tk.ID), Name: tk.Name, Start: t(tk.Start), End: t(tk.End), Complete: tk.Complete(), Logs: len(tk.Logs), Regions: len(tk.Regions)}
		if tk.Parent != nil {
			o.Parent = uint64(tk.Parent.ID)
		}
		for id := range tk.Goroutines {
			o.Goroutines = append(o.Goroutines, int64(id))
		}
		sort.Slice(o.Goroutines, func(i, j int) bool { return o.Goroutines[i] < o.Goroutines[j] })
		ts = append(ts, o)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].ID < ts[j].ID })
	out["tasks"] = ts
	flagSets := []struct {
		name string
		f    trace.UtilFlags
	}{{"stw", trace.UtilSTW}, {"stw+background+assist+sweep", trace.UtilSTW | trace.UtilBackground | trace.UtilAssist | trace.UtilSweep}, {"stw+background+assist+sweep per-proc", trace.UtilSTW | trace.UtilBackground | trace.UtilAssist | trace.UtilSweep | trace.UtilPerProc}}
	mmu := map[string]any{}
	extra := map[string]any{}
	for _, fs := range flagSets {
		util := trace.MutatorUtilizationV2(events, fs.f)
		c := trace.NewMMUCurve(util)
		m := map[string]float64{}
		ex := map[string]any{}
		for w := time.Microsecond; w <= time.Second; w *= 10 {
			m[w.String()] = c.MMU(w)
			if len(os.Args) > 2 {
				ex[w.String()] = map[string]any{"examples": c.Examples(w, 5), "mud": c.MUD(w, []float64{0, 1 - .999, 1 - .99, 1 - .95, 0.5})}
				if len(os.Args) > 3 {
					ex["series_data"] = util
				}
			}
		}
		mmu[fs.name] = m
		if len(os.Args) > 2 {
			n := 0
			for _, u := range util {
				n += len(u)
			}
			ex["points"] = n
			ex["series"] = len(util)
			extra[fs.name] = ex
		}
	}
	out["mmu"] = mmu
	if len(os.Args) > 2 {
		out["mmu_extra"] = extra
	}
	b, _ := json.MarshalIndent(out, "", " ")
	fmt.Println(string(b))
}
