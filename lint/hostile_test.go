package lint

import (
	"fmt"
	"strings"
	"testing"
)

// A pull request of n concepts sharing one title (git stores the one blob once, so this costs the
// attacker nothing) must not make OKF108's output grow as n²: each finding names a few of the
// others and counts the rest. Uncapped, 10,000 such files printed about a gigabyte.
func TestTitleDuplicateBounded(t *testing.T) {
	const n = 3000
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("c/x%04d.md", i)] = "---\ntype: Note\ntitle: Same\n---\n# Same\n"
	}
	b := load(t, files)
	ds := Run(b, Options{Rules: []*Rule{TitleDuplicate}})
	if len(ds) != n {
		t.Fatalf("%d findings, want %d", len(ds), n)
	}
	total := 0
	for _, d := range ds {
		total += len(d.Message)
	}
	if total > n*300 {
		t.Errorf("OKF108 messages total %d bytes for %d concepts: not linear", total, n)
	}
	// The first concept names the next three by path order and counts the rest: n-1 others, 3 named.
	want := fmt.Sprintf(`title "Same" is also the title of c/x0001.md, c/x0002.md, c/x0003.md and %d more: readers and agents choosing by title cannot tell them apart; make it distinct (§4.1)`, n-4)
	if ds[0].Pos.Path != "c/x0000.md" || ds[0].Message != want {
		t.Errorf("first finding:\n%s: %.300s\nwant c/x0000.md: %s", ds[0].Pos.Path, ds[0].Message, want)
	}
	// The last names the first three (itself left out).
	if m := ds[n-1].Message; !strings.Contains(m, "c/x0000.md, c/x0001.md, c/x0002.md and ") {
		t.Errorf("last finding: %.300s", m)
	}
}
