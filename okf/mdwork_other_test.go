//go:build !linux

package okf

import "time"

var cpuStart = time.Now()

// threadCPU stands in for the thread's CPU time with wall time where there is no per-thread count.
func threadCPU() float64 { return time.Since(cpuStart).Seconds() }
