package okf

import (
	"runtime"
	"testing"

	"github.com/okf-tools/okf/internal/synth"
)

// BenchmarkLoad10k loads a synthetic bundle of 10,000 concepts (~6 KB each, every frontmatter
// family, links, footnotes, code). It reports concepts/s, the heap the loaded bundle keeps
// (retained-MiB, after a GC) and the peak heap seen while loading (peak-heap-MiB).
func BenchmarkLoad10k(b *testing.B) {
	dir := b.TempDir()
	n := 10000
	size, err := synth.Write(dir, synth.Options{Concepts: n})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ResetTimer()
	cpu0 := synth.CPUTime()
	var retained, peak uint64
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		stop := make(chan struct{})
		done := make(chan uint64)
		go func() { done <- synth.SamplePeak(stop) }()
		bundle, err := LoadDir(dir, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		close(stop)
		if p := <-done; p > peak {
			peak = p
		}
		if len(bundle.Concepts) != n {
			b.Fatalf("loaded %d concepts, want %d", len(bundle.Concepts), n)
		}
		b.StopTimer()
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		retained = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(bundle)
		b.StartTimer()
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "concepts/s")
	// CPU time per load does not depend on what else the machine runs: on two free cores the
	// wall time is at best half of it.
	b.ReportMetric((synth.CPUTime()-cpu0).Seconds()*1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(retained)/(1<<20), "retained-MiB")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
}

// BenchmarkParseConcept parses one synthetic ~6 KB concept: frontmatter with every family and a
// body with links, footnotes and a code block. It splits the load cost from file I/O.
func BenchmarkParseConcept(b *testing.B) {
	src := []byte(synth.Concept(10, 10000, 100, 5000))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if c, _ := ParseConcept("area000/c00010.md", src); !c.Conformant() {
			b.Fatal("synthetic concept is not conformant")
		}
	}
}
