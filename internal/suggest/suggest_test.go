package suggest

import (
	"fmt"
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	cands := []string{"lint", "trust", "attest", "gen", "index", "schema", "version"}
	for _, tc := range []struct{ word, want string }{
		{"lnt", "lint"},      // one deletion
		{"LINT", "lint"},     // case
		{"trsut", "trust"},   // one transposition
		{"attets", "attest"}, // one transposition
		{"vers", "version"},  // a prefix
		{"xyz", ""},          // nothing close
		{"generate", ""},     // too far, and not a prefix of any
		{"", ""},
	} {
		if got := Closest(tc.word, cands); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
	if got := Closest("okf-lint-disabel", []string{"okf-lint-disable", "okf-lint-disable-next-line"}); got != "okf-lint-disable" {
		t.Errorf("directive: got %q", got)
	}
}

// TestClosestLongWord: a did-you-mean for a 1 MB key compares it with each candidate without
// converting it to runes per candidate (no candidate can be within 3 edits of it).
func TestClosestLongWord(t *testing.T) {
	word := strings.Repeat("ignore", 200000)
	cands := make([]string, 200)
	for i := range cands {
		cands[i] = fmt.Sprintf("candidate%d", i)
	}
	allocs := testing.AllocsPerRun(2, func() { Closest(word, cands) })
	if allocs > 10 {
		t.Errorf("Closest allocated %v times for a long word, want a few (not one per candidate)", allocs)
	}
}
