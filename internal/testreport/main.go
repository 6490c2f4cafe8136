// Command testreport reads `go test -json` events on stdin and prints what CI needs to see: the
// output of every failed test, one line per package as `go test` prints it, every skipped test with
// its reason (so a green run that skipped the browser, the database or the sandbox tests says so),
// and a closing "N passed, N failed, N skipped" line. It exits 1 when any test or package failed,
// or when the input holds no test at all.
//
//	go test -json ./... | go run ./internal/testreport
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

type key struct{ pkg, test string }

type summary struct {
	output          map[key]*strings.Builder
	failed, skipped []key
	passed          int
	pkgLines        []string
	pkgFailed       bool
}

func main() {
	s, err := read(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	os.Exit(s.print(os.Stdout))
}

func read(r io.Reader) (*summary, error) {
	s := &summary{output: map[key]*strings.Builder{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			// Build errors and other non-JSON lines go to the log as they are.
			fmt.Println(string(line))
			continue
		}
		k := key{e.Package, e.Test}
		switch e.Action {
		case "build-output":
			fmt.Print(e.Output)
		case "build-fail":
			s.pkgFailed = true
		case "output":
			b := s.output[k]
			if b == nil {
				b = &strings.Builder{}
				s.output[k] = b
			}
			b.WriteString(e.Output)
		case "pass", "fail", "skip":
			if e.Test == "" {
				s.packageDone(e)
				continue
			}
			switch e.Action {
			case "pass":
				s.passed++
				delete(s.output, k)
			case "fail":
				s.failed = append(s.failed, k)
			case "skip":
				s.skipped = append(s.skipped, k)
			}
		}
	}
	return s, sc.Err()
}

// packageDone records a package's closing line in go test's own form.
func (s *summary) packageDone(e event) {
	switch e.Action {
	case "pass":
		s.pkgLines = append(s.pkgLines, fmt.Sprintf("ok  \t%s\t%.3fs", e.Package, e.Elapsed))
	case "skip":
		s.pkgLines = append(s.pkgLines, fmt.Sprintf("?   \t%s\t[no test files]", e.Package))
	case "fail":
		s.pkgFailed = true
		s.pkgLines = append(s.pkgLines, fmt.Sprintf("FAIL\t%s\t%.3fs", e.Package, e.Elapsed))
		// A package that failed to build or crashed outside a test: show its own output.
		if b := s.output[key{e.Package, ""}]; b != nil {
			fmt.Print(b.String())
		}
	}
}

func (s *summary) print(w io.Writer) int {
	for _, k := range s.failed {
		fmt.Fprintf(w, "--- FAIL: %s (%s)\n", k.test, k.pkg)
		if b := s.output[k]; b != nil {
			fmt.Fprint(w, indent(b.String()))
		}
	}
	for _, l := range s.pkgLines {
		fmt.Fprintln(w, l)
	}
	if len(s.skipped) > 0 {
		sort.Slice(s.skipped, func(i, j int) bool {
			a, b := s.skipped[i], s.skipped[j]
			if a.pkg != b.pkg {
				return a.pkg < b.pkg
			}
			return a.test < b.test
		})
		fmt.Fprintf(w, "\nSkipped tests (%d):\n", len(s.skipped))
		for _, k := range s.skipped {
			fmt.Fprintf(w, "  %s %s: %s\n", strings.TrimPrefix(k.pkg, "github.com/okf-tools/okf/"), k.test, reason(s.output[k]))
		}
	}
	fmt.Fprintf(w, "\ntests: %d passed, %d failed, %d skipped\n", s.passed, len(s.failed), len(s.skipped))
	if len(s.failed) > 0 || s.pkgFailed || s.passed == 0 {
		return 1
	}
	return 0
}

// reason is the message a skipped test gave: its output without the === and --- lines.
func reason(b *strings.Builder) string {
	if b == nil {
		return "(no reason given)"
	}
	var parts []string
	for _, l := range strings.Split(b.String(), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
			continue
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return "(no reason given)"
	}
	return strings.Join(parts, " / ")
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("    " + l)
		}
	}
	return b.String()
}
