package main

import (
	"io"
	"os"
	"testing"
)

// BenchmarkLintDir is `okf lint --now 2026-07-01 -f json DIR` in this process, on the bundle
// named by OKF_BENCH_DIR (a real one, or one internal/bench wrote with -dir), so that a profile
// shows where a whole run's time goes; OKF_BENCH_FORMAT=text profiles the report a person gets:
//
//	OKF_BENCH_DIR=/tmp/bench/G-62161 go test ./cmd/okf -run '^$' -bench LintDir -benchtime 1x -cpuprofile /tmp/cpu.prof
//	go tool pprof -top /tmp/cpu.prof
func BenchmarkLintDir(b *testing.B) {
	dir := os.Getenv("OKF_BENCH_DIR")
	if dir == "" {
		b.Skip("set OKF_BENCH_DIR to the bundle to lint")
	}
	format := os.Getenv("OKF_BENCH_FORMAT")
	if format == "" {
		format = "json"
	}
	for range b.N {
		if code := run([]string{"okf", "lint", "--now", "2026-07-01", "-f", format, dir}, nil, io.Discard, io.Discard, func(string) string { return "" }); code > 1 {
			b.Fatalf("exit %d", code)
		}
	}
}
