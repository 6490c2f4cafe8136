// Command bench measures the real okf binary on synthetic bundles of three shapes (L: a generated
// wiki, S: generated records, D: a documentation site converted to Markdown; see gen.go) and on
// real bundles: CPU time per file (user + system, from the child's rusage), wall time and peak RSS
// (ru_maxrss) of whole `okf lint`, `okf trust` and `okf attest list` processes, the median of
// several runs, beside the share of bodies and bytes the Markdown fast path leaves to goldmark.
//
//	go run ./internal/bench                          # L at 5,678 files, S at 3,412, D at 5,678, okf lint
//	go run ./internal/bench -sizes D:5678 -real ../shared/corpus-large/databricks-okf
//	go run ./internal/bench -sizes L:10000,L:30000,L:100000
//	go run ./internal/bench -cmd lint,trust,attest -bin before=/tmp/okf-before,after=/tmp/okf
//	go run ./internal/bench -rust /path/to/rust/okf       # the Rust crate's validate beside okf lint
//
// Without -bin it builds ./cmd/okf of the current tree as a release is built (.goreleaser.yaml's
// flags and tags; see releaseBuild). It is a command, not a test, so that
// `go test ./...` stays fast; CPU time is reported because it depends far less than wall time on
// what else the machine is doing.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	sizes := flag.String("sizes", "L:5678,S:3412,D:5678", "comma-separated SHAPE:FILES bundles to measure (shapes L, S, D and G; see gen.go)")
	realDirs := flag.String("real", "", "comma-separated folders of real bundles to measure too")
	cover := flag.Bool("coverage", true, "report the share of bodies and bytes the Markdown fast path leaves to goldmark (runs go test ./okf)")
	cmds := flag.String("cmd", "lint", "comma-separated commands to run: lint, trust, attest")
	bins := flag.String("bin", "", "comma-separated okf binaries to compare, each NAME=PATH or PATH (default: build ./cmd/okf)")
	reps := flag.Int("reps", 5, "runs of each measurement; the median is reported")
	keep := flag.String("dir", "", "write the bundles under DIR and keep them (default: a temporary folder, removed)")
	rust := flag.String("rust", "", "also measure the Rust okf crate's binary at this path (`validate --today 2026-07-01 DIR`) beside okf lint")
	flag.Parse()
	if os.Getenv(launcherEnv) == "1" {
		if err := serveLauncher(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "bench launcher:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*sizes, *realDirs, *cmds, *bins, *rust, *reps, *keep, *cover, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type binary struct{ name, path string }

type size struct {
	shape string
	files int
	dir   string // a real bundle's folder, for shape "real"
}

func parseSizes(s string) ([]size, error) {
	var out []size
	for _, f := range strings.Split(s, ",") {
		shape, n, ok := strings.Cut(strings.TrimSpace(f), ":")
		files, err := strconv.Atoi(n)
		if !ok || err != nil || files <= 0 || (shape != "L" && shape != "S" && shape != "D" && shape != "G") {
			return nil, fmt.Errorf("size %q: want SHAPE:FILES with SHAPE L, S, D or G", f)
		}
		out = append(out, size{shape: shape, files: files})
	}
	return out, nil
}

// commandArgs are the okf arguments of each measured command; --now keeps the work the same on
// every day.
var commandArgs = map[string][]string{
	"lint":   {"lint", "--now", "2026-07-01", "-f", "json"},
	"trust":  {"trust", "--now", "2026-07-01"},
	"attest": {"attest", "list"},
}

// rustArgs are the Rust okf crate's arguments for its counterpart of okf lint: validate, with the
// same fixed day. It exits 65 on a bundle that is not conformant (shape L has files without type).
var rustArgs = []string{"validate", "--today", "2026-07-01"}

const rustNotConformant = 65

func run(sizeList, realList, cmdList, binList, rust string, reps int, keep string, cover bool, out io.Writer) error {
	var sz []size
	if sizeList != "" {
		var err error
		if sz, err = parseSizes(sizeList); err != nil {
			return err
		}
	}
	if realList != "" {
		for _, d := range strings.Split(realList, ",") {
			sz = append(sz, size{shape: "real", dir: d})
		}
	}
	cmds := strings.Split(cmdList, ",")
	for _, c := range cmds {
		if commandArgs[c] == nil {
			return fmt.Errorf("unknown command %q (lint, trust, attest)", c)
		}
	}
	// Started first, while this process is small: see launcherEnv.
	l, err := startLauncher()
	if err != nil {
		return err
	}
	defer l.close()
	work, err := os.MkdirTemp("", "okf-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	var bs []binary
	if binList == "" {
		p := filepath.Join(work, "okf")
		build, err := releaseBuild(".", p)
		if err != nil {
			return fmt.Errorf("building ./cmd/okf (run from the repository root): %v", err)
		}
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building ./cmd/okf (run from the repository root): %v", err)
		}
		bs = append(bs, binary{"okf", p})
	} else {
		for _, b := range strings.Split(binList, ",") {
			name, path, ok := strings.Cut(b, "=")
			if !ok {
				name, path = filepath.Base(b), b
			}
			bs = append(bs, binary{name, path})
		}
	}
	// Each binary is measured from a copy written 4 KiB at a time. The executable's file pages count
	// in the peak RSS, and how many a process maps at start depends on how the file sits in the page
	// cache: a binary written in large chunks (as the Go linker or a 1 MiB copy writes it) was seen
	// to map ~9 MiB more than the same bytes written in 4 KiB pages (on Linux 6.18, ext4, which
	// caches large writes as large folios). Copying both binaries alike keeps that out of a
	// comparison.
	for i, b := range bs {
		p := filepath.Join(work, fmt.Sprintf("bin-%d", i))
		if err := copyInPages(b.path, p); err != nil {
			return err
		}
		bs[i].path = p
	}
	if rust != "" {
		p := filepath.Join(work, "bin-rust")
		if err := copyInPages(rust, p); err != nil {
			return err
		}
		rust = p
	}
	bundles := keep
	if bundles == "" {
		bundles = work
	}
	fmt.Fprintln(out, "| shape | files | MB | fast path leaves | command | binary | CPU µs/file | CPU s | wall s | peak RSS MiB |")
	fmt.Fprintln(out, "|---|---:|---:|---|---|---|---:|---:|---:|---:|")
	for _, s := range sz {
		dir := filepath.Join(bundles, fmt.Sprintf("%s-%d", s.shape, s.files))
		var bytes int64
		if s.dir != "" {
			dir = s.dir
			bytes = dirSize(dir)
			s.files = countMarkdown(dir)
		} else if st, err := os.Stat(filepath.Join(dir, "index.md")); err == nil && !st.IsDir() && keep != "" {
			bytes = dirSize(dir)
		} else {
			os.RemoveAll(dir)
			if bytes, err = writeBundle(dir, s.shape, s.files); err != nil {
				return err
			}
		}
		leaves := "–"
		if cover {
			if leaves, err = coverage(dir); err != nil {
				return err
			}
		}
		for _, c := range cmds {
			type row struct {
				cmd, name, bin string
				args           []string
				okExit         int
			}
			var rows []row
			if c == "lint" && rust != "" {
				rows = append(rows, row{"validate", "rust okf", rust, rustArgs, rustNotConformant})
			}
			for _, b := range bs {
				rows = append(rows, row{c, b.name, b.path, commandArgs[c], 0})
			}
			// The binaries take turns, run by run, so that a machine that slows down or speeds up
			// part way through weighs on all of them alike.
			ms := make([][]measure, len(rows))
			for range reps {
				for i, r := range rows {
					m, err := l.run(r.bin, append(append([]string(nil), r.args...), dir), r.okExit)
					if err != nil {
						return err
					}
					ms[i] = append(ms[i], m)
				}
			}
			for i, r := range rows {
				m := median(ms[i])
				fmt.Fprintf(out, "| %s | %d | %.1f | %s | %s | %s | %.0f | %.2f | %.2f | %.0f |\n", s.shape, s.files, float64(bytes)/1e6, leaves, r.cmd, r.name,
					float64(m.cpu.Microseconds())/float64(s.files), m.cpu.Seconds(), m.wall.Seconds(), float64(m.rss)/(1<<20))
			}
		}
		if keep == "" && s.dir == "" {
			os.RemoveAll(dir)
		}
	}
	return nil
}

// coverageRE is the summary line of okf's TestBodyFastCoverage.
var coverageRE = regexp.MustCompile(`(\d+) of (\d+) bodies fall back \(([\d.]+)%\), (\d+) of (\d+) bytes \(([\d.]+)%\)`)

// coverage returns the share of the bundle's bodies and bytes that the Markdown fast path of the
// current tree leaves to goldmark, as okf's TestBodyFastCoverage measures it (the fast path is
// not exported: the test is its one reader).
func coverage(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	cmd := exec.Command("go", "test", "./okf", "-run", "^TestBodyFastCoverage$", "-count=1", "-v")
	cmd.Env = append(os.Environ(), "OKF_BODYFAST_COVERAGE="+abs)
	outb, err := cmd.CombinedOutput()
	m := coverageRE.FindSubmatch(outb)
	if err != nil || m == nil {
		return "", fmt.Errorf("measuring the fast path's coverage (run from the repository root): %v\n%s", err, outb)
	}
	return fmt.Sprintf("%s%% of bodies, %s%% of bytes", m[3], m[6]), nil
}

// countMarkdown counts the .md files under dir.
func countMarkdown(dir string) int {
	n := 0
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(p, ".md") {
			n++
		}
		return nil
	})
	return n
}

func dirSize(dir string) int64 {
	var n int64
	_ = filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			n += info.Size()
		}
		return nil
	})
	return n
}

type measure struct {
	cpu, wall time.Duration
	rss       int64 // bytes
}

// measureRun runs one okf process with its output thrown away and reads its rusage. Exit code 1
// (findings) is expected, and okExit when not 0; anything else above 0 is an error.
func measureRun(bin string, args []string, okExit int) (measure, error) {
	cmd := exec.Command(bin, args...)
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return measure{}, err
	}
	defer devnull.Close()
	cmd.Stdout, cmd.Stderr = devnull, devnull
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if ee, ok := err.(*exec.ExitError); ok && (ee.ExitCode() == 1 || (okExit != 0 && ee.ExitCode() == okExit)) {
		err = nil
	}
	if err != nil {
		return measure{}, fmt.Errorf("%s %s: %v", bin, strings.Join(args, " "), err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return measure{}, fmt.Errorf("no rusage on this system")
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return measure{cpu: cpu, wall: wall, rss: ru.Maxrss * 1024}, nil // Linux reports KiB
}

// median takes each figure's median on its own.
func median(ms []measure) measure {
	pick := func(f func(measure) int64) int64 {
		v := make([]int64, len(ms))
		for i, m := range ms {
			v[i] = f(m)
		}
		sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
		return v[len(v)/2]
	}
	return measure{
		cpu:  time.Duration(pick(func(m measure) int64 { return int64(m.cpu) })),
		wall: time.Duration(pick(func(m measure) int64 { return int64(m.wall) })),
		rss:  pick(func(m measure) int64 { return m.rss }),
	}
}

// copyInPages copies the executable src to dst one 4 KiB write at a time.
func copyInPages(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	for off := 0; off < len(data); off += 4096 {
		if _, err := f.Write(data[off:min(off+4096, len(data))]); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
