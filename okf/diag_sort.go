package okf

import (
	"cmp"
	"slices"
	"strings"
	"unsafe"
)

// sortByPathRank is sortByComparing (the same order: by path, line, column, code, message, then
// place in ds; the same exact duplicates removed) with each distinct path compared with the others
// once instead of in every comparison: the paths are ranked first, and the diagnostics sorted by a
// key holding the rank and the line. Comparing paths was most of the sort's time on a bundle of
// thousands of files with five findings each, whose paths share a long prefix.
func sortByPathRank(ds []Diagnostic) []Diagnostic {
	// The slot of each finding's path, in the order paths are first met; findings of one file
	// usually hold the same string, which is recognised without hashing it.
	slots := make([]int32, len(ds))
	index := map[string]int32{}
	var paths []string
	var last *byte
	lastLen, lastSlot := -1, int32(0)
	for i := range ds {
		p := ds[i].Pos.Path
		if len(p) == lastLen && unsafe.StringData(p) == last {
			slots[i] = lastSlot
			continue
		}
		s, ok := index[p]
		if !ok {
			s = int32(len(paths))
			index[p] = s
			paths = append(paths, p)
		}
		slots[i] = s
		last, lastLen, lastSlot = unsafe.StringData(p), len(p), s
	}
	byName := make([]int32, len(paths))
	for i := range byName {
		byName[i] = int32(i)
	}
	slices.SortFunc(byName, func(a, b int32) int { return strings.Compare(paths[a], paths[b]) })
	rank := make([]int32, len(paths))
	for r, s := range byName {
		rank[s] = int32(r)
	}
	keys := make([]diagKey, len(ds))
	for i := range ds {
		// The line's bits flipped at the sign put int32 order into uint32 order.
		keys[i] = diagKey{at: uint64(rank[slots[i]])<<32 | uint64(uint32(ds[i].Pos.Line)^1<<31), col: ds[i].Pos.Col, i: int32(i)}
	}
	slices.SortFunc(keys, func(a, b diagKey) int {
		if a.at != b.at {
			return cmp.Compare(a.at, b.at)
		}
		if a.col != b.col {
			return cmp.Compare(a.col, b.col)
		}
		x, y := &ds[a.i], &ds[b.i]
		return cmp.Or(strings.Compare(x.Code, y.Code), strings.Compare(x.Message, y.Message), cmp.Compare(a.i, b.i))
	})
	idx := slots[:0] // reused: the slots are read
	for _, k := range keys {
		idx = append(idx, k.i)
	}
	permute(ds, idx)
	out := ds[:0]
	for i, d := range ds {
		if i > 0 && d == ds[i-1] {
			continue
		}
		out = append(out, d)
	}
	return out
}

// diagKey is what sortByPathRank orders a finding by before its code and message: its path's
// rank and its line (at), its column, and its place.
type diagKey struct {
	at  uint64
	col int32
	i   int32
}
