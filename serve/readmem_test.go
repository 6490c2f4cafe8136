package serve

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReadMemoryBounded: a read call's working memory follows its answer (at most 256 KiB), not
// the concept's size. read finds every word start of the whole body on each call (wordStarts):
// for a body of 8 MiB of one-letter words, a []int of 4 million entries, grown by appends, on
// every call. Forty reads in flight over stdio took 3 GB of memory; 64 requests in progress over
// HTTP would take about 5 GB, where the README bounds them at 64 × (2 MiB + 256 KiB).
func TestReadMemoryBounded(t *testing.T) {
	dir := t.TempDir()
	body := strings.Repeat("a ", (8<<20)/2-64)
	os.WriteFile(filepath.Join(dir, "big.md"), []byte("---\ntype: Concept\ntitle: Big\n---\n"+body), 0o644)
	s, _ := newServer(t, dir, 0)
	c := inMemory(t, s, eras[0])
	var out ReadOut
	call(t, c, "read", map[string]any{"id": "big"}, &out) // the first call also makes the trust analysis
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	call(t, c, "read", map[string]any{"id": "big", "offset": 1000}, &out)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("one read of a 256 KiB answer allocated %d MiB", got>>20)
	}
}
