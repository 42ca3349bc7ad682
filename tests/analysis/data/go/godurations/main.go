// Prints Go's time.Duration.String and time.ParseDuration results and the buckets of
// go tool trace's duration histogram (traceviewer.TimeHistogram) for chosen values.
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"time"
)

var logDiv = math.Log(math.Pow(10, 1.0/5))

func bucket(d time.Duration) int {
	var b int
	if d > 0 {
		b = int(math.Log(float64(d)) / logDiv)
	}
	return b
}

func main() {
	var ds []int64
	for p := int64(1); p <= 1e12; p *= 10 {
		for _, m := range []int64{1, 2, 3, 5, 7} {
			for _, off := range []int64{-1, 0, 1} {
				if v := p*m + off; v >= 0 {
					ds = append(ds, v)
				}
			}
		}
	}
	for b := 0; b <= 60; b++ {
		v := int64(time.Duration(math.Exp(float64(b) * logDiv)))
		ds = append(ds, v-1, v, v+1)
	}
	out := map[string]any{}
	var buckets []int
	for _, d := range ds {
		buckets = append(buckets, bucket(time.Duration(d)))
	}
	var mins []int64
	for b := 0; b <= 60; b++ {
		mins = append(mins, int64(time.Duration(math.Exp(float64(b)*logDiv))))
	}
	out["durations"] = ds
	out["buckets"] = buckets
	out["bucket_min"] = mins
	var strs [][2]any
	for _, d := range []int64{0, 1, 999, 1000, 1001, 1500, 999999, 1000000, 1500000, 999999999, 1000000000, 1500000000, 60000000000, 61500000000, 3600000000000, 3661000000001, -1, -1500, -2000000000, math.MaxInt64, math.MinInt64} {
		strs = append(strs, [2]any{d, time.Duration(d).String()})
	}
	out["duration_strings"] = strs
	var parses [][3]any
	for _, s := range []string{"0", "1ns", "1us", "1µs", "1μs", "1.5ms", "100ms", "2s", "1m30s", "1h", "-1.5s", "+3ms", ".5s", "1.s", "1", "", "s", "1x", "9223372036854775807ns", "9223372036854775808ns", "2562047h47m16.854775807s", "1.0000000001s", "0.3333333333333333333333s"} {
		d, err := time.ParseDuration(s)
		parses = append(parses, [3]any{s, int64(d), err == nil})
	}
	out["parses"] = parses
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
}
