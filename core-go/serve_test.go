// SPDX-License-Identifier: GPL-3.0-or-later
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// records: the JSON lines written to out while f runs.
func records(t *testing.T, f func()) []map[string]any {
	t.Helper()
	var buf bytes.Buffer
	out.Reset(&buf)
	defer out.Reset(os.Stdout)
	f()
	out.Flush()
	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		recs = append(recs, r)
	}
	return recs
}

// answers splits a stream after its preamble and library record at each end record.
func answers(recs []map[string]any) [][]map[string]any {
	var all [][]map[string]any
	var cur []map[string]any
	for _, r := range recs[2:] {
		cur = append(cur, r)
		if r["type"] == "end" {
			all = append(all, cur)
			cur = nil
		}
	}
	return all
}

// sameOutside: the fields of a record that do not depend on timing.
func sameOutside(r map[string]any) string {
	c := map[string]any{}
	for k, v := range r {
		switch k {
		case "iters", "wall_ns", "cpu_ns", "slope_ns_per_byte", "intercept_ns", "r2", "freq_hz", "elapsed_ns":
			if s, ok := v.([]any); ok {
				c[k] = len(s) // the sample count
			}
		case "freq_cycles", "freq_wall_ns", "freq_cpu_ns":
			c[k] = "probes" // sized by the preamble's clock: serve's end takes fewer
		default:
			c[k] = v
		}
	}
	b, _ := json.Marshal(c)
	return string(b)
}

const sessionRequest = `{"algo":["chacha20","aes-128-gcm"],"op":"encrypt","sizes":[64,1024,2048],"samples":3,"min_sample_ms":0.05}`

// A session of two good requests with a bad one between (and a blank line): each answered
// with the records bench writes for the same arguments, the known answers only the first
// time, the bad one with one bad_request error; every answer ends with its end record.
func TestServeSession(t *testing.T) {
	a := serveArgs()
	L, err := openBench(a, goRows)
	if err != nil {
		t.Fatal(err)
	}
	in := sessionRequest + "\n" + `{"algo":["chacha20"],"op":"encrypt","samples":0}` + "\n \n" +
		sessionRequest + "\n" + sessionRequest + "\n"
	recs := records(t, func() {
		L.start("serve")
		L.serve(strings.NewReader(in), a, goRows, newBenchMemo())
	})
	if recs[0]["type"] != "preamble" || recs[0]["command"] != "serve" || recs[1]["type"] != "library" {
		t.Fatalf("greeting %v %v", recs[0], recs[1])
	}
	if fmt.Sprint(recs[0]["commands"]) != "[list kat bench serve tls]" {
		t.Fatalf("commands %v", recs[0]["commands"])
	}
	got := answers(recs)
	if len(got) != 4 {
		t.Fatalf("%d answers", len(got))
	}
	bad := got[1]
	if len(bad) != 2 || bad[0]["type"] != "error" || bad[0]["reason"] != "bad_request" ||
		bad[0]["algo"] != nil || bad[0]["op"] != nil || bad[0]["lib"] != libName ||
		!strings.Contains(bad[0]["message"].(string), `"samples" must be a whole number from 1 to 1000`) {
		t.Fatalf("bad request answered %v", bad)
	}

	bench := records(t, func() {
		b := &args{cmd: "bench", lib: libName, cpu: -1, vectors: "../vectors", op: "encrypt",
			algos: []string{"chacha20", "aes-128-gcm"}, sizes: []int{64, 1024, 2048}, sizesGiven: true,
			samples: 3, minSampleMs: 0.05}
		if rc := cmdBench(b, goRows); rc != 0 {
			t.Errorf("bench exit %d", rc)
		}
	})
	want := bench[2:]
	for i, ans := range [][]map[string]any{got[0], got[2], got[3]} {
		var exp []string
		for _, r := range want {
			if i == 0 || r["type"] != "kat" { // known answers once per algorithm
				exp = append(exp, sameOutside(r))
			}
		}
		var have []string
		for _, r := range ans {
			have = append(have, sameOutside(r))
		}
		if strings.Join(have, "\n") != strings.Join(exp, "\n") {
			t.Fatalf("answer %d:\n%s\nbench:\n%s", i, strings.Join(have, "\n"), strings.Join(exp, "\n"))
		}
		end := ans[len(ans)-1]
		if end["elapsed_ns"].(float64) <= 0 || end["cpu_ns"] == nil {
			t.Fatalf("end %v", end)
		}
	}
	// Each point keeps its loop count; only a machine that became more than twice as fast
	// between two answers has a point calibrated again, too rare to happen twice in a row.
	iters := func(ans []map[string]any) string {
		var s []string
		for _, r := range ans {
			if r["type"] == "point" {
				s = append(s, fmt.Sprint(r["algo"], r["size"], r["iters"]))
			}
		}
		return strings.Join(s, " ")
	}
	if iters(got[0]) != iters(got[2]) && iters(got[2]) != iters(got[3]) {
		t.Fatalf("loop counts not kept: %s / %s / %s", iters(got[0]), iters(got[2]), iters(got[3]))
	}
}

// A failed known answer is remembered: asked again, the algorithm is refused with the same
// kat_failed error, its vectors not checked again.
func TestServeRemembersAFailedKnownAnswer(t *testing.T) {
	set := repoVectors(t)
	var files []vecFile
	for _, f := range set.files {
		if f.alg.name == "sha256" {
			f.v = append([]vector(nil), f.v...)
			f.v[0].md.b = append([]byte(nil), f.v[0].md.b...)
			f.v[0].md.b[0] ^= 1
			files = append(files, f)
		}
	}
	L := &benchLib{set: &vecSet{files: files}}
	a := serveArgs()
	req := `{"algo":["sha256"],"op":"hash","sizes":[64],"samples":2,"min_sample_ms":0.05}` + "\n"
	recs := records(t, func() {
		L.start("serve")
		L.serve(strings.NewReader(req+req), a, goRows, newBenchMemo())
	})
	got := answers(recs)
	if len(got) != 2 || got[0][0]["type"] != "kat" || got[0][0]["failed"].(float64) < 1 {
		t.Fatalf("first answer %v", got)
	}
	for _, ans := range got {
		e := ans[len(ans)-2]
		if e["type"] != "error" || e["reason"] != "kat_failed" || e["message"] != got[0][1]["message"] {
			t.Fatalf("answer %v", ans)
		}
	}
	if len(got[1]) != 2 {
		t.Fatalf("vectors checked again: %v", got[1])
	}
}

// The memo's loop count is kept when a batch of it still lasts half a sample, and
// calibrated again when it does not (here: one call, far shorter than half of 5 ms).
func TestCalibrationKeptOrRedone(t *testing.T) {
	a := &args{cmd: "bench", lib: libName, cpu: -1, op: "encrypt", samples: 2, minSampleMs: 5}
	r := findRow(goRows, "chacha20")
	key := calibKey{algo: "chacha20", op: "encrypt", size: 64, minNs: 5_000_000}
	point := func(memo *benchMemo) uint64 {
		recs := records(t, func() {
			if _, ok := measurePoint(a, r, 64, memo); !ok {
				t.Error("not measured")
			}
		})
		return uint64(recs[0]["iters"].(float64))
	}
	memo := newBenchMemo()
	calibrated := point(memo)
	if memo.calibs[key] != calibrated || calibrated < 2 {
		t.Fatalf("calibrated %d, kept %v", calibrated, memo.calibs)
	}
	memo.calibs[key] = 4 * calibrated // lasts at least 4 samples' minimum: kept
	if got := point(memo); got != 4*calibrated {
		t.Fatalf("a count long enough was not kept: %d for %d", got, 4*calibrated)
	}
	memo.calibs[key] = 1 // far too short: calibrated again, and the new count kept
	if got := point(memo); got < 2 || memo.calibs[key] != got {
		t.Fatalf("a count too short was kept: %d (memo %d)", got, memo.calibs[key])
	}
}

// spinner: each call lasts at least 1 us of wall time, whatever the machine; calls counts them.
type spinner struct{ calls int }

func (s *spinner) run(*msg) status {
	s.calls++
	for t0 := wallNs(); wallNs()-t0 < 1000; {
	}
	return statusOK
}

// A point calibrated by an earlier request warms up for 1 ms (or one sample's minimum when
// longer), not for the first calibration's warm-up.
func TestKeptCountWarmsBriefly(t *testing.T) {
	for _, c := range []struct{ minNs, want uint64 }{{0, 1_000_000}, {500_000, 1_000_000}, {2_000_000, 2_000_000}} {
		if got := memoWarmNs(c.minNs); got != c.want {
			t.Errorf("memoWarmNs(%d) = %d, want %d", c.minNs, got, c.want)
		}
	}
	s := &spinner{}
	key := calibKey{algo: "sha256", op: "hash", size: 16, minNs: 2_000}
	memo := newBenchMemo()
	memo.calibs[key] = 7 // 7 calls of >= 1 us: at least half the 2 us asked, kept
	iters, st := memo.calibrate(&job{r: s}, key, 50_000_000)
	if st != statusOK || iters != 7 {
		t.Fatalf("kept count: %d (status %d)", iters, st)
	}
	// Batches of 7 calls of >= 1 us each until 1 ms has passed: at most 143 of them.
	if s.calls < 7 || s.calls > 7*143 {
		t.Fatalf("%d calls: the warm-up was not about 1 ms", s.calls)
	}
}

// Serve's end probes the clock 8 times for about 50 us each, sized by the preamble's clock
// and without a wake-up; without that clock it measures in full, as every other end.
func TestEndClockPlan(t *testing.T) {
	if got, want := endClockPlan(3.2e9), (clockPlan{rounds: 5000, probes: 8}); got != want {
		t.Errorf("endClockPlan(3.2 GHz) = %+v, want %+v", got, want)
	}
	for _, hz := range []float64{0, -1, math.NaN()} {
		if got := endClockPlan(hz); got != fullClock {
			t.Errorf("endClockPlan(%v) = %+v, want the full measure %+v", hz, got, fullClock)
		}
	}
	if fullClock.wakeRounds == 0 {
		t.Errorf("the full measure lost its wake-up: %+v", fullClock)
	}
	if got := clockRounds(50_000, 0); got != 4687 { // 3 GHz assumed
		t.Errorf("clockRounds(50 us, unknown) = %d", got)
	}
	if got := clockRounds(1, 1e6); got != 1 {
		t.Errorf("clockRounds(1 ns, 1 MHz) = %d, want at least 1", got)
	}
}
