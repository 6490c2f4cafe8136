package lsp

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/okf-tools/okf/internal/synth"
)

// BenchmarkKeystroke is one keystroke in a concept of a 5,000-concept bundle: the edit sent, the
// concept parsed again, its per-concept rules and the bundle's cross-file rules run, and its
// diagnostics published. The heap held by the loaded bundle is reported as MiB-heap.
//
//	go test ./lsp -run '^$' -bench Keystroke -benchtime 50x
func BenchmarkKeystroke(b *testing.B) {
	root := b.TempDir()
	if _, err := synth.Write(root, synth.Options{Concepts: 5000}); err != nil {
		b.Fatal(err)
	}
	var target string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if target == "" && err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") && d.Name() != "index.md" && d.Name() != "log.md" {
			target = p
		}
		return nil
	})
	data, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	t := &testing.T{}
	cl := newClient(t, Options{Now: fixed})
	cl.t = t
	cl.init(root)
	cl.open(target, string(data))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap := float64(ms.HeapInuse) / (1 << 20)
	texts := []string{string(data) + "\nA new line.\n", string(data)}
	b.ResetTimer()
	cpu := synth.CPUTime()
	for i := 0; i < b.N; i++ {
		cl.change(target, texts[i%2], i+2)
	}
	b.StopTimer()
	// The process's CPU time per keystroke: on a busy machine wall time also counts waiting.
	b.ReportMetric(float64(synth.CPUTime()-cpu)/float64(b.N)/1e6, "ms-cpu/op")
	b.ReportMetric(heap, "MiB-heap") // after ResetTimer, which drops metrics reported before it
	if len(cl.diags) == 0 {
		b.Fatal("no diagnostics were published")
	}
}
