package okf

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
)

// TestSortDiagnosticsOrder: findings come out by path, line, column, then code, then message, with
// exact duplicates removed and, among findings equal in all of those, in the order they came (a
// stable sort: they differ only in end or severity).
func TestSortDiagnosticsOrder(t *testing.T) {
	ds := []Diagnostic{
		{Pos: Position{Path: "b.md", Line: 1, Col: 1}, Code: "OKF1", Message: "m"},
		{Pos: Position{Path: "a.md", Line: 2, Col: 1}, Code: "OKF1", Message: "m"},
		{Pos: Position{Path: "a.md", Line: 1, Col: 5}, Code: "OKF2", Message: "m"},
		{Pos: Position{Path: "a.md", Line: 1, Col: 5}, Code: "OKF1", Message: "z", Severity: Warning},
		{Pos: Position{Path: "a.md", Line: 1, Col: 5}, Code: "OKF1", Message: "z", Severity: Info},
		{Pos: Position{Path: "a.md", Line: 1, Col: 5}, Code: "OKF1", Message: "a"},
		{Pos: Position{Path: "a.md"}, Code: "OKF9", Message: "whole file"},
		{Pos: Position{Path: "b.md", Line: 1, Col: 1}, Code: "OKF1", Message: "m"}, // duplicate
	}
	want := []Diagnostic{
		{Pos: Position{Path: "a.md"}, Code: "OKF9", Message: "whole file"},
		{Pos: Position{Path: "a.md", Line: 1, Col: 5}, Code: "OKF1", Message: "a"},
		{Pos: Position{Path: "a.md", Line: 1, Col: 5}, Code: "OKF1", Message: "z", Severity: Warning},
		{Pos: Position{Path: "a.md", Line: 1, Col: 5}, Code: "OKF1", Message: "z", Severity: Info},
		{Pos: Position{Path: "a.md", Line: 1, Col: 5}, Code: "OKF2", Message: "m"},
		{Pos: Position{Path: "a.md", Line: 2, Col: 1}, Code: "OKF1", Message: "m"},
		{Pos: Position{Path: "b.md", Line: 1, Col: 1}, Code: "OKF1", Message: "m"},
	}
	if got := SortDiagnostics(ds); !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}

	// On many random findings with ties, the order of a stable sort by the same keys.
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(ss ...string) string { return ss[r.IntN(len(ss))] }
	var many []Diagnostic
	for range 5000 {
		many = append(many, Diagnostic{
			Pos:      Position{Path: pick("a.md", "b.md", "c/d.md"), Line: int32(r.IntN(4)), Col: int32(r.IntN(3))},
			End:      Position{Line: int32(r.IntN(2))},
			Code:     pick("OKF101", "OKF102"),
			Severity: Severity(r.IntN(3)),
			Message:  pick("x", "y"),
		})
	}
	oracle := append([]Diagnostic(nil), many...)
	sort.SliceStable(oracle, func(i, j int) bool {
		a, b := oracle[i], oracle[j]
		if a.Pos != b.Pos {
			return a.Pos.Less(b.Pos)
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
	var dedup []Diagnostic
	for i, d := range oracle {
		if i == 0 || d != oracle[i-1] {
			dedup = append(dedup, d)
		}
	}
	if got := SortDiagnostics(many); !reflect.DeepEqual(got, dedup) {
		t.Fatal("SortDiagnostics differs from a stable sort by path, line, column, code and message")
	}
}
