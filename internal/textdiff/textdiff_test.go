package textdiff

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestUnified checks the diff of a whole-file change against diffs written by hand in git's
// form: a created file, a changed line with its context, an added last line without a newline.
func TestUnified(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new string
		created  bool
		want     string
	}{
		{"created", "", "# Index\n\n* [A](a.md)\n", true,
			"--- /dev/null\n+++ b/kb/index.md\n@@ -0,0 +1,3 @@\n+# Index\n+\n+* [A](a.md)\n"},
		{"one line changed", "1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nfive\n6\n7\n8\n", false,
			"--- a/kb/index.md\n+++ b/kb/index.md\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{"entry added", "# I\n\n* [A](a.md)\n* [C](c.md)\n", "# I\n\n* [A](a.md)\n* [B](b.md)\n* [C](c.md)\n", false,
			"--- a/kb/index.md\n+++ b/kb/index.md\n@@ -1,4 +1,5 @@\n # I\n \n * [A](a.md)\n+* [B](b.md)\n * [C](c.md)\n"},
		{"no newline at end", "a\n", "a\nb", false,
			"--- a/kb/index.md\n+++ b/kb/index.md\n@@ -1,1 +1,2 @@\n a\n+b\n\\ No newline at end of file\n"},
		{"unchanged", "a\nb\n", "a\nb\n", false, ""},
	} {
		var old []byte
		if !tc.created {
			old = []byte(tc.old)
		}
		if got := Unified("kb/index.md", old, []byte(tc.new)); got != tc.want {
			t.Errorf("%s:\n--- got\n%s--- want\n%s", tc.name, got, tc.want)
		}
	}
}

// TestUnifiedApplies applies the diffs of random pairs of files (and of pairs too large to
// match line by line) as patch would, and checks each gives the new file back.
func TestUnifiedApplies(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gen := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(strconv.Itoa(r.IntN(5)) + "\n")
		}
		if r.IntN(4) == 0 {
			b.WriteString("end") // no final newline
		}
		return b.String()
	}
	for i := range 500 {
		old, new := gen(r.IntN(30)), gen(r.IntN(30))
		if i%50 == 0 {
			old, new = gen(1100), gen(1100) // past maxDiffCells: one replaced block
		}
		d := Unified("f", []byte(old), []byte(new))
		got, err := applyUnified(old, d)
		if err != nil || got != new {
			t.Fatalf("pair %d: %v\nold %q\nnew %q\ndiff\n%s\napplied %q", i, err, old, new, d, got)
		}
	}
}

// applyUnified applies a one-file unified diff to old, checking every context and removed line.
func applyUnified(old, d string) (string, error) {
	if d == "" {
		return old, nil
	}
	src := Lines([]byte(old))
	lines := strings.SplitAfter(d, "\n")
	var out []string
	at := 0
	for i := 2; i < len(lines) && lines[i] != ""; {
		var os, on, ns, nn int
		h := strings.TrimSuffix(lines[i], "\n")
		if _, err := fmt.Sscanf(h, "@@ -%d,%d +%d,%d @@", &os, &on, &ns, &nn); err != nil {
			var n1 int
			if _, err2 := fmt.Sscanf(h, "@@ -%d +%d,%d @@", &os, &ns, &n1); err2 != nil {
				if _, err3 := fmt.Sscanf(h, "@@ -%d,%d +%d @@", &os, &on, &ns); err3 != nil {
					return "", fmt.Errorf("bad hunk header %q", h)
				}
			}
		}
		start := max(os-1, 0)
		if on == 0 && os > 0 {
			start = os
		}
		out = append(out, src[at:start]...)
		at = start
		i++
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			i++
			text := l[1:]
			if i < len(lines) && strings.HasPrefix(lines[i], `\ No newline`) {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if at >= len(src) || src[at] != text {
					return "", fmt.Errorf("line %d: want %q", at+1, text)
				}
				if l[0] == ' ' {
					out = append(out, text)
				}
				at++
			case '+':
				out = append(out, text)
			}
		}
	}
	out = append(out, src[at:]...)
	return strings.Join(out, ""), nil
}
