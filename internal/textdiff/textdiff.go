// Package textdiff writes unified diffs of whole files, the form `git apply` and reviewers read:
// Unified matches two versions line by line, bounded on adversarial input; Lines and HunkRange are
// the pieces okf.UnifiedDiff shares to write the diff of a list of edits in the same form. It is a
// leaf: it imports nothing of the module but the escaping of the header's path.
package textdiff

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/okf-tools/okf/internal/escape"
)

// maxDiffCells bounds the line-matching table of Unified (old lines × new lines between the
// common head and tail): past it the changed middle is shown as one replaced block, still a
// correct diff, so a hostile pair of files costs linear time and at most this many cells.
const maxDiffCells = 1 << 20

// Unified is the unified diff (three lines of context, as git writes it) that turns old into
// new at path; old nil is a file created (--- /dev/null). It is what every --dry-run prints for a
// whole-file change (okf index, okf gen), so its output goes to `git apply` as okf lint --fix
// --dry-run's does. Lines are matched by a longest common subsequence, bounded by maxDiffCells.
// The header's path is escaped; the body is bundle text, escaped by whoever prints it.
func Unified(path string, old, new []byte) string {
	path = escape.Control(strings.TrimPrefix(path, "/"))
	a, b := Lines(old), Lines(new)
	var w strings.Builder
	if old == nil {
		fmt.Fprintf(&w, "--- /dev/null\n+++ b/%s\n@@ -0,0 +%s @@\n", path, HunkRange(0, len(b)))
		for _, l := range b {
			writeDiffLine(&w, '+', l)
		}
		return w.String()
	}
	ops := lineOps(a, b)
	changed := false
	for _, op := range ops {
		if op.kind != ' ' {
			changed = true
			break
		}
	}
	if !changed {
		return ""
	}
	fmt.Fprintf(&w, "--- a/%s\n+++ b/%s\n", path, path)
	// Hunks: each change with up to three unchanged lines either side; changes closer than seven
	// unchanged lines share a hunk.
	const ctx = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(0, i-ctx)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j + 1
				continue
			}
			if j-end >= 2*ctx {
				break
			}
		}
		end = min(len(ops), end+ctx)
		oldN, newN := 0, 0
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				oldN++
			}
			if op.kind != '-' {
				newN++
			}
		}
		fmt.Fprintf(&w, "@@ -%s +%s @@\n", HunkRange(ops[start].oldLine, oldN), HunkRange(ops[start].newLine, newN))
		for _, op := range ops[start:end] {
			writeDiffLine(&w, op.kind, op.text)
		}
		i = end
	}
	return w.String()
}

func writeDiffLine(w *strings.Builder, kind byte, line string) {
	w.WriteByte(kind)
	w.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		w.WriteString("\n\\ No newline at end of file\n")
	}
}

// lineOp is one line of a diff: ' ' kept, '-' removed, '+' added; oldLine and newLine are the
// 0-based line numbers at which it stands in each file.
type lineOp struct {
	kind             byte
	text             string
	oldLine, newLine int
}

// lineOps matches the lines of a and b: the common head and tail as they are, the middle by a
// longest common subsequence when it fits maxDiffCells, else as all removed then all added.
func lineOps(a, b []string) []lineOp {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	ops := make([]lineOp, 0, len(a)+len(mb))
	oi, ni := 0, 0
	emit := func(kind byte, text string) {
		ops = append(ops, lineOp{kind, text, oi, ni})
		if kind != '+' {
			oi++
		}
		if kind != '-' {
			ni++
		}
	}
	for _, l := range a[:head] {
		emit(' ', l)
	}
	if len(ma) > 0 && len(mb) > 0 && len(ma)*len(mb) <= maxDiffCells {
		// lcs[i][j] is the length of the longest common subsequence of ma[i:] and mb[j:].
		n := len(mb) + 1
		lcs := make([]int32, (len(ma)+1)*n)
		for i := len(ma) - 1; i >= 0; i-- {
			for j := len(mb) - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i*n+j] = lcs[(i+1)*n+j+1] + 1
				} else {
					lcs[i*n+j] = max(lcs[(i+1)*n+j], lcs[i*n+j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(ma) && j < len(mb) {
			switch {
			case ma[i] == mb[j]:
				emit(' ', ma[i])
				i, j = i+1, j+1
			case lcs[(i+1)*n+j] >= lcs[i*n+j+1]:
				emit('-', ma[i])
				i++
			default:
				emit('+', mb[j])
				j++
			}
		}
		ma, mb = ma[i:], mb[j:]
	}
	for _, l := range ma {
		emit('-', l)
	}
	for _, l := range mb {
		emit('+', l)
	}
	for _, l := range a[len(a)-tail:] {
		emit(' ', l)
	}
	return ops
}

// HunkRange writes one side of a hunk header ("-3,4" without its sign) as diff -u and git do: a
// 1-based first line and a count, or the line before an empty range and 0.
func HunkRange(start0, n int) string {
	if n == 0 {
		return strconv.Itoa(start0) + ",0"
	}
	return strconv.Itoa(start0+1) + "," + strconv.Itoa(n)
}

// Lines cuts text into the lines a unified diff shows, each keeping its "\n" (the last may have
// none, which a diff marks "\\ No newline at end of file").
func Lines(b []byte) []string {
	var out []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, string(b))
			break
		}
		out = append(out, string(b[:i+1]))
		b = b[i+1:]
	}
	return out
}
