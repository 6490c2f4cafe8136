package okf

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestSortByPathRankMatchesComparing: sortByPathRank gives what sortByComparing gives (order and
// duplicates removed) on random diagnostics of every size around SortDiagnostics' threshold: paths sharing
// prefixes, the empty path, one path in several strings and several files in a row, lines and
// columns of every sign, ties on position, code and message that differ in severity or end, and
// exact duplicates, in runs and apart.
func TestSortByPathRankMatchesComparing(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	names := []string{"", "a.md", "a.md#", "b/a.md", "s000/p00001.md", "s000/p00010.md", "s000/p0001.md", "s001/p00001.md", "é.md", "A.md"}
	codes := []string{"OKF104", "OKF905", "OKF304", "OKF1040"}
	messages := []string{"", "tags: expected a list", "m", "m2", "é"}
	nums := []int32{0, 1, 2, 5, 10, 100, -1, -7, 1 << 30, -1 << 31, 1<<31 - 1}
	for round := range 400 {
		n := r.IntN(300)
		if round < 20 {
			n = 60 + round // around the threshold
		}
		ds := make([]Diagnostic, 0, n)
		for len(ds) < n {
			if len(ds) > 0 && r.IntN(6) == 0 {
				ds = append(ds, ds[r.IntN(len(ds))]) // an exact duplicate
				continue
			}
			path := names[r.IntN(len(names))]
			if r.IntN(2) == 0 {
				path = strings.Clone(path) // the same path in another string
			}
			d := Diagnostic{
				Pos:      Position{Path: path, Line: nums[r.IntN(len(nums))], Col: nums[r.IntN(4)]},
				Code:     codes[r.IntN(len(codes))],
				Severity: Severity(r.IntN(3)),
				Message:  messages[r.IntN(len(messages))],
			}
			if r.IntN(3) == 0 {
				d.End = Position{Path: path, Line: d.Pos.Line, Col: d.Pos.Col + 1}
			}
			for range 1 + r.IntN(4) { // a file's findings together, as rules report them
				if len(ds) < n {
					ds = append(ds, d)
					d.Pos.Line = nums[r.IntN(len(nums))]
				}
			}
		}
		want := sortByComparing(slices.Clone(ds))
		got := sortByPathRank(slices.Clone(ds))
		if !reflect.DeepEqual(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("round %d (%d findings): first difference at %d:\ngot:  %+v\nwant: %+v", round, n, i, got[i], want[i])
				}
			}
			t.Fatalf("round %d: %d findings, want %d", round, len(got), len(want))
		}
	}
}
