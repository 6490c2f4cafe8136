package lint

import (
	"runtime"
	"testing"
	"time"

	"github.com/okf-tools/okf/internal/synth"
	"github.com/okf-tools/okf/okf"
)

// BenchmarkLint10k is `okf lint` end to end on the synthetic 10,000-concept bundle: load, then every
// rule (conformance, families, engine and schemas). It reports concepts/s and the peak heap seen
// during a run (peak-heap-MiB, sampled every millisecond). Target on a 2-core machine: at least
// 10,000 concepts/s and a peak heap under 100 MiB.
func BenchmarkLint10k(b *testing.B) {
	dir := b.TempDir()
	const n = 10000
	if _, err := synth.Write(dir, synth.Options{Concepts: n}); err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 7, 15, 0, 0, 0, 0, time.UTC)
	var peak uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runtime.GC()
		stop := make(chan struct{})
		done := make(chan uint64)
		go func() { done <- samplePeak(stop) }()
		bundle, err := okf.LoadDir(dir, okf.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		ds := Run(bundle, Options{Now: now})
		close(stop)
		if p := <-done; p > peak {
			peak = p
		}
		if len(bundle.Concepts) != n {
			b.Fatalf("loaded %d concepts, want %d", len(bundle.Concepts), n)
		}
		_ = ds
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "concepts/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
}

// BenchmarkRules10k runs only the rules (the bundle loaded once), to split their cost from loading.
func BenchmarkRules10k(b *testing.B) {
	dir := b.TempDir()
	const n = 10000
	if _, err := synth.Write(dir, synth.Options{Concepts: n}); err != nil {
		b.Fatal(err)
	}
	bundle, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 7, 15, 0, 0, 0, 0, time.UTC)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Run(bundle, Options{Now: now})
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "concepts/s")
}

// samplePeak polls the live heap until stop is closed and returns the largest value seen.
func samplePeak(stop chan struct{}) uint64 {
	var peak uint64
	var ms runtime.MemStats
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for {
		runtime.ReadMemStats(&ms)
		if ms.HeapAlloc > peak {
			peak = ms.HeapAlloc
		}
		select {
		case <-stop:
			return peak
		case <-t.C:
		}
	}
}
