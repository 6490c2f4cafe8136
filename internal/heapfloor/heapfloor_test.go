package heapfloor

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func cycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// settings reads GOGC and the memory limit without changing them (setting GOGC to read it back
// would race with settle, which may hand the default back meanwhile).
func settings() (int, int64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	pct := int(s[0].Value.Uint64())
	if pct == 0 {
		pct = -1 // off reads as 0
	}
	return pct, int64(s[1].Value.Uint64())
}

var sink []byte

// churn allocates n bytes of garbage in 4 KiB pieces, keeping none.
func churn(n int) {
	for i := 0; i < n/4096; i++ {
		sink = make([]byte, 4096)
	}
	sink = nil
}

// defaults puts the collector back as the test process started, whatever a test left. The tests
// need the floor to act: with GOGC or GOMEMLIMIT set, Start rightly does nothing.
func defaults(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: the floor stays off (TestEnvironmentWins's case)")
	}
	t.Cleanup(func() {
		Stop()
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}

func heapGoal() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// Under the floor the heap's goal is the floor (less the runtime's own memory), not the default's
// 4 MB for a live heap this small, and garbage well below it is not collected at all.
func TestFloorDefersCollection(t *testing.T) {
	defaults(t)
	runtime.GC()
	if g := heapGoal(); g > 16<<20 {
		t.Fatalf("without the floor the heap goal is %d bytes; expected the default's few MiB (the test proves nothing)", g)
	}
	Start(160 << 20)
	if g := heapGoal(); g < 100<<20 {
		t.Errorf("under a 160 MiB floor the heap goal is %d bytes, want most of the floor", g)
	}
	before := cycles()
	churn(48 << 20)
	if n := cycles() - before; n != 0 {
		t.Errorf("under a 160 MiB floor, 48 MiB of garbage took %d collections, want none", n)
	}
	if pct, limit := settings(); pct != -1 || limit != 160<<20 {
		t.Errorf("under the floor GOGC is %d and the memory limit %d, want off and 160 MiB", pct, limit)
	}
	Stop()
	if pct, limit := settings(); pct != 100 || limit != math.MaxInt64 {
		t.Errorf("after Stop GOGC is %d and the memory limit %d, want 100 and none", pct, limit)
	}
	if g := heapGoal(); g > 16<<20 {
		t.Errorf("after Stop the heap goal is %d bytes, want the default's", g)
	}
}

// A live heap that outgrows the floor's room gets the default collector back, so a large run's
// heap grows as it did without the floor (and is never held under the limit).
func TestFloorGivesWayToALargeLiveHeap(t *testing.T) {
	defaults(t)
	runtime.GC()
	Start(16 << 20)
	var live [][]byte
	for i := 0; i < 3<<8; i++ { // 12 MiB kept
		live = append(live, make([]byte, 16<<10))
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		churn(4 << 20)
		if pct, _ := settings(); pct == 100 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	runtime.KeepAlive(live)
	if pct, limit := settings(); pct != 100 || limit != math.MaxInt64 {
		t.Fatalf("with 12 MiB live under a 16 MiB floor, GOGC is %d and the memory limit %d; want the default collector back (100, none)", pct, limit)
	}
}

// A small live heap keeps the floor across collections: the watch is armed again each cycle.
func TestFloorHoldsWhileTheLiveHeapIsSmall(t *testing.T) {
	defaults(t)
	runtime.GC()
	Start(32 << 20)
	before := cycles()
	deadline := time.Now().Add(10 * time.Second)
	for cycles()-before < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("%d collections in 10 s of churning under a 32 MiB floor, expected 3", cycles()-before)
		}
		churn(8 << 20)
		time.Sleep(time.Millisecond) // the cleanup goroutine's turn
	}
	if pct, limit := settings(); pct != -1 || limit != 32<<20 {
		t.Errorf("after %d collections with a small live heap GOGC is %d and the memory limit %d, want the floor (off, 32 MiB)", cycles()-before, pct, limit)
	}
}

// GOGC or GOMEMLIMIT in the environment is the user's setting: Start leaves the collector alone.
func TestEnvironmentWins(t *testing.T) {
	defaults(t)
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(v, func(t *testing.T) {
			t.Setenv(v, "200")
			Start(64 << 20)
			if pct, limit := settings(); pct != 100 || limit != math.MaxInt64 {
				t.Errorf("with %s set, Start changed the collector: GOGC %d, memory limit %d", v, pct, limit)
			}
		})
	}
}

// A cleanup armed before Stop does not act after a later Start: each Start watches its own.
func TestStaleWatchDoesNothing(t *testing.T) {
	defaults(t)
	Start(32 << 20)
	first := arms
	Stop()
	Start(48 << 20)
	settle(first)
	if pct, limit := settings(); pct != -1 || limit != 48<<20 {
		t.Errorf("an earlier Start's watch changed the floor: GOGC %d, memory limit %d", pct, limit)
	}
}
