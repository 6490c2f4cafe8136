package synth

import (
	"runtime"
	"syscall"
	"time"
)

// CPUTime is the process's user and system CPU time so far. Benchmarks report it beside wall time
// because it does not depend on what else the machine runs.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// SamplePeak polls the heap every 5 ms (ReadMemStats stops the world, so not more often) until stop
// is closed, and returns the largest HeapAlloc seen.
func SamplePeak(stop <-chan struct{}) uint64 {
	var peak uint64
	var ms runtime.MemStats
	t := time.NewTicker(5 * time.Millisecond)
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
