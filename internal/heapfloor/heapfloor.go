// Package heapfloor lets a short run of okf reach a floor of memory before the garbage collector
// first runs. The Go compiler raises its own starting heap for the same reason
// (cmd/compile/internal/base.AdjustStartingHeap, through GOGC); here the collector is off under a
// memory limit instead, which bounds the process whatever its input.
//
// Why: the collector's first heap goal is 4 MB. okf's package initialisation alone allocates
// 2.5 MB, so a lint of a 91-file bundle collected twice before it had read much, and a
// 3,412-file lint collected ten times while its live heap grew from 1 to 8 MB. Each cycle stops
// both processors, scans every goroutine's stack and turns on write barriers; on the two-core
// machine the collector was a third of such a run's CPU. Under the floor a small run does not
// collect at all (a quarter less CPU). The cost is memory where a run's own peak is below the
// floor: a lint of 1,000–2,000 files peaks up to 3–4 MiB higher than under the default collector
// (D at 2,000 files: 35–36 MiB against 32); from about 3,000 files on, the default collector's heap
// reaches the floor's size anyway, and no measured bundle's peak rose by more than the noise
// (docs/dev/performance.md, "Memory"). The limit counts all the memory the runtime holds (heap,
// stacks, its own structures), so the first collection comes at a heap of about 13 MB.
//
// Once twice the live heap reaches the floor's heap goal, the default collector is back from the
// next cycle on (GOGC=100, no memory limit), so a large bundle's heap grows as it did. GOGC or
// GOMEMLIMIT in the environment is the user's choice: then nothing is changed.
package heapfloor

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Floor is the floor okf's batch commands start with: the Go memory (heap, stacks and the
// runtime's own) the process may reach before its first collection. At 20 MiB a lint of 1,147
// small records collected once, just as it gathered its findings, which then took ten times as
// long (a large allocation during marking pays assists, and every pointer copied a barrier); at
// 22 MiB it does not collect, for 15% less CPU and 2 MiB less peak RSS, and the bench bundles of
// 3,412 files or more take 3–7% less CPU with the same peak RSS (±0.6 MiB). The cost, against a
// 20 MiB floor, is up to 2 MiB more at 1,000–2,000 files of the docs-like shape. 28 MiB raised
// the 5,678-file docs-like shape's peak above the Rust crate's; 16 MiB took 8% more CPU on the
// 3,412-file shape.
const Floor = 22 << 20

var (
	mu sync.Mutex
	// on is true from Start until the default collector is back (Stop, or a cycle after which
	// the live heap no longer fits the floor's room).
	on bool
	// arms counts Start calls, so a cleanup armed by an earlier Start (after Stop and Start again)
	// does nothing.
	arms int
)

// Start turns the floor on: the collector is off (GOGC=off) under a memory limit of floor bytes.
// It does nothing when GOGC or GOMEMLIMIT is set in the environment, or floor is not positive.
func Start(floor int64) {
	if floor <= 0 || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	if on {
		return
	}
	on = true
	arms++
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(floor)
	watch(arms)
}

// Stop gives the default collector back (GOGC=100, no memory limit) if Start turned the floor on:
// a long-running command (okf serve, okf lsp) calls it, so it does not keep a floor's worth of
// garbage while it waits.
func Stop() {
	mu.Lock()
	defer mu.Unlock()
	stopLocked()
}

func stopLocked() {
	if !on {
		return
	}
	on = false
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
}

// sentinel is what watch hangs its cleanup on: large enough to stay out of the tiny allocator,
// whose blocks hold several objects and are freed together.
type sentinel struct{ _ [4]uintptr }

// watch arranges for settle to run after the next collection: the cleanup of an object nothing
// points to runs once a cycle has found it unreachable.
func watch(arm int) {
	runtime.AddCleanup(new(sentinel), settle, arm)
}

var sample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}}

// settle runs after each collection while the floor is on: once twice the live heap reaches the
// floor's heap goal, GOGC=100 gives the heap at least the room the floor does, and the default
// collector takes over; until then it watches the next cycle.
func settle(arm int) {
	mu.Lock()
	defer mu.Unlock()
	if !on || arm != arms {
		return
	}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 || sample[1].Value.Kind() != metrics.KindUint64 {
		stopLocked()
		return
	}
	if live, goal := sample[0].Value.Uint64(), sample[1].Value.Uint64(); 2*live >= goal {
		stopLocked()
		return
	}
	watch(arm)
}
