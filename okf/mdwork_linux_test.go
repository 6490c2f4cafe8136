package okf

import "golang.org/x/sys/unix"

// threadCPU is the CPU time, in seconds, of the calling thread (FuzzMarkdownWork locks it): other
// processes on a loaded machine do not add to it, as they would to wall time.
func threadCPU() float64 {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_THREAD, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
