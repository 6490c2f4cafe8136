package serve

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/okf-tools/okf/internal/synth"
)

// synth10k writes the synthetic 10,000-concept bundle once per benchmark.
func synth10k(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	if _, err := synth.Write(dir, synth.Options{Concepts: 10000}); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkServeStartup10k is what `okf serve` does before it answers: load the bundle, judge
// trust, read every concept's text and build the search index. Compare with BenchmarkLint10k (load
// and every rule). It reports concepts/s, the peak heap while starting and the heap kept by the
// running server (after a GC).
func BenchmarkServeStartup10k(b *testing.B) {
	dir := synth10k(b)
	now := time.Date(2026, 7, 15, 0, 0, 0, 0, time.UTC)
	var peak, kept uint64
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runtime.GC()
		stop := make(chan struct{})
		done := make(chan uint64)
		go func() { done <- synth.SamplePeak(stop) }()
		c0 := synth.CPUTime()
		s, err := New(Options{Dir: dir, Now: func() time.Time { return now }})
		cpu += synth.CPUTime() - c0
		close(stop)
		if p := <-done; p > peak {
			peak = p
		}
		if err != nil {
			b.Fatal(err)
		}
		if s.Concepts() != 10000 {
			b.Fatalf("%d concepts", s.Concepts())
		}
		b.StopTimer()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		kept = ms.HeapAlloc
		runtime.KeepAlive(s)
		b.StartTimer()
	}
	b.ReportMetric(10000*float64(b.N)/b.Elapsed().Seconds(), "concepts/s")
	b.ReportMetric(cpu.Seconds()*1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(kept)/(1<<20), "kept-heap-MiB")
}

// benchQueries mix rare words (a concept number), words in every concept ("quick brown fox") and
// filters.
var benchQueries = []map[string]any{
	{"query": "synthetic concept 4242"},
	{"query": "quick brown fox"},
	{"query": "sum amount sales", "k": 10},
	{"query": "neighbour concept upstream document", "min_tier": "human-reviewed"},
	{"query": "metric recomputed nightly", "include_deprecated": true, "k": 20},
	{"query": "benchmark", "tag": "synthetic", "type": "Metric"},
	{"query": "7"},
	{"query": "nothing matches zzzz"},
}

// BenchmarkSearch10k times the search tool over the synthetic 10,000-concept bundle, through the
// protocol (an in-memory client session, JSON encoding included) and the handler alone, and reports
// the 50th and 99th percentile of single queries (wall clock, so they include waiting for a core on a
// busy machine) and the CPU time per query (which does not). Target: p50 ≤ 5 ms, p99 ≤ 20 ms.
func BenchmarkSearch10k(b *testing.B) {
	s, err := New(Options{Dir: synth10k(b), Now: func() time.Time { return time.Date(2026, 7, 15, 0, 0, 0, 0, time.UTC) }})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("handler", func(b *testing.B) {
		lat := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		c0 := synth.CPUTime()
		for i := 0; i < b.N; i++ {
			q := benchQueries[i%len(benchQueries)]
			in := SearchIn{Query: q["query"].(string)}
			if k, ok := q["k"].(int); ok {
				in.K = k
			}
			in.MinTier, _ = q["min_tier"].(string)
			in.Tag, _ = q["tag"].(string)
			in.Type, _ = q["type"].(string)
			in.IncludeDeprecated, _ = q["include_deprecated"].(bool)
			t0 := time.Now()
			if _, _, err := s.search(context.Background(), nil, in); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(t0))
		}
		b.ReportMetric((synth.CPUTime()-c0).Seconds()*1000/float64(b.N), "cpu-ms/op")
		percentiles(b, lat)
	})
	b.Run("protocol", func(b *testing.B) {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := s.MCP().Connect(context.Background(), st, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer ss.Close()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		lat := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		c0 := synth.CPUTime()
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search", Arguments: benchQueries[i%len(benchQueries)]})
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
			lat = append(lat, time.Since(t0))
		}
		b.ReportMetric((synth.CPUTime()-c0).Seconds()*1000/float64(b.N), "cpu-ms/op")
		percentiles(b, lat)
	})
}

func percentiles(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	p := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(p(0.50), "p50-ms")
	b.ReportMetric(p(0.99), "p99-ms")
	b.ReportMetric(0, "ns/op")
	if testing.Verbose() {
		fmt.Printf("search latency over %d queries: p50 %.3f ms, p99 %.3f ms, max %.3f ms\n", len(lat), p(0.5), p(0.99), p(1))
	}
}
