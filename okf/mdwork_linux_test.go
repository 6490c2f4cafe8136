package okf

import "golang.org/x/sys/unix"

// threadCPU is the CPU time, in seconds, of the calling thread (FuzzMarkdownWork locks it): other
// processes on a loaded machine do not add to it, as they would to wall time.
func threadCPU() float64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return float64(ts.Nano()) / 1e9
}
