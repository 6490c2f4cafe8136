package lint

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/okf-tools/okf/internal/synth"
	"github.com/okf-tools/okf/okf"
)

// BenchmarkLint10k is `okf lint` end to end on the synthetic 10,000-concept bundle: load, then every
// rule (conformance, families, engine and schemas). It reports concepts/s (wall clock), the CPU time
// of the load and of the rules (which, unlike wall time, does not depend on what else the machine
// runs: on two free cores the wall time is about half of it), and the peak heap seen during a run.
// Target on a 2-core machine: at least 10,000 concepts/s and a peak heap under 100 MiB.
func BenchmarkLint10k(b *testing.B) {
	dir := b.TempDir()
	const n = 10000
	if _, err := synth.Write(dir, synth.Options{Concepts: n}); err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 7, 15, 0, 0, 0, 0, time.UTC)
	var peak uint64
	var loadCPU, rulesCPU time.Duration
	findings := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runtime.GC()
		stop := make(chan struct{})
		done := make(chan uint64)
		go func() { done <- synth.SamplePeak(stop) }()
		c0 := synth.CPUTime()
		bundle, err := okf.LoadDir(dir, okf.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		c1 := synth.CPUTime()
		findings = len(Run(bundle, Options{Now: now}))
		c2 := synth.CPUTime()
		close(stop)
		if p := <-done; p > peak {
			peak = p
		}
		loadCPU += c1 - c0
		rulesCPU += c2 - c1
		if len(bundle.Concepts) != n {
			b.Fatalf("loaded %d concepts, want %d", len(bundle.Concepts), n)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "concepts/s")
	b.ReportMetric(loadCPU.Seconds()*1000/float64(b.N), "load-cpu-ms/op")
	b.ReportMetric(rulesCPU.Seconds()*1000/float64(b.N), "rules-cpu-ms/op")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(findings), "findings")
}

// BenchmarkRules runs only the rules (the bundle loaded once) on synthetic bundles of 2,500 and
// 10,000 concepts, to split their cost from loading and to show it grows linearly: concepts/s and
// cpu-µs/concept should be about the same for both sizes.
func BenchmarkRules(b *testing.B) {
	for _, n := range []int{2500, 10000} {
		b.Run(fmt.Sprintf("concepts=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			if _, err := synth.Write(dir, synth.Options{Concepts: n}); err != nil {
				b.Fatal(err)
			}
			bundle, err := okf.LoadDir(dir, okf.LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			now := time.Date(2026, 7, 15, 0, 0, 0, 0, time.UTC)
			b.ResetTimer()
			c0 := synth.CPUTime()
			for i := 0; i < b.N; i++ {
				Run(bundle, Options{Now: now})
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "concepts/s")
			b.ReportMetric((synth.CPUTime()-c0).Seconds()*1e6/float64(b.N*n), "cpu-µs/concept")
		})
	}
}
