package okf

import (
	"regexp"
	"strings"
	"testing"
)

// TestFootnoteScanners compares the footnote scan's three scanners with the regular expressions
// they read by hand, on random lines of the bytes that matter to them (brackets, carets, colons,
// backticks, every ASCII space and a few that are not, letters, runes beyond ASCII and bytes that
// are no UTF-8).
func TestFootnoteScanners(t *testing.T) {
	defRE := regexp.MustCompile(`^ {0,3}\[\^([^\]\s]+)\]:[ \t]*(.*)$`)
	refRE := regexp.MustCompile(`\[\^([^\]\s]+)\]`)
	tickRE := regexp.MustCompile("`+[^`]*`+")
	pieces := []string{"[", "^", "]", ":", "[^", "]:", "`", "``", "```", " ", "  ", "   ", "    ", "\t", "\r", "\f", "\v",
		"a", "b1", "x-y", "é", "\u00a0", "\xff", "\xc3", "[^a]", "[^1]:", "[^a b]", "[^]", "`x`", "` `", "[^`]`", "\\"}
	check := func(s string) {
		t.Helper()
		m := defRE.FindStringSubmatchIndex(s)
		ls, le, ts, ok := footnoteDefAt(s)
		if ok != (m != nil) || ok && (ls != m[2] || le != m[3] || ts != m[4] || m[5] != len(s)) {
			t.Fatalf("%q: definition %v %d %d %d, the expression %v", s, ok, ls, le, ts, m)
		}
		var got [][]int
		for at := 0; ; {
			start, ls, le := nextFootnoteRef(s, at)
			if start < 0 {
				break
			}
			got = append(got, []int{start, le + 1, ls, le})
			at = le + 1
		}
		want := refRE.FindAllStringSubmatchIndex(s, -1)
		if len(got) != len(want) {
			t.Fatalf("%q: references %v, the expression %v", s, got, want)
		}
		for i := range got {
			for k := range 4 {
				if got[i][k] != want[i][k] {
					t.Fatalf("%q: references %v, the expression %v", s, got, want)
				}
			}
		}
		if g, w := blankTickRuns(s), tickRE.ReplaceAllStringFunc(s, func(c string) string { return strings.Repeat(" ", len(c)) }); g != w {
			t.Fatalf("%q: backticks blanked %q, the expression %q", s, g, w)
		}
	}
	for _, s := range pieces {
		check(s)
	}
	rnd := xorshift(11)
	for range 200000 {
		var b strings.Builder
		for k := rnd(10); k >= 0; k-- {
			b.WriteString(pieces[rnd(len(pieces))])
		}
		check(b.String())
	}
}
