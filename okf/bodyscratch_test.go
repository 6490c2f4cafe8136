package okf

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// TestBodyScratch: bodies parsed one after another in one loader worker's scratch (bodies
// refused by the fast path among them) are each the body ParseBody reads alone, and stay so once
// the scratch has been reused for every other body: nothing a Body holds is the scratch's.
func TestBodyScratch(t *testing.T) {
	bodies := append(append(append([]string{}, bodySeeds...), nearMisses...), benchShapeBodies...)
	bodies = append(bodies, corpusBodies(t)...)
	r := rand.New(rand.NewSource(1))
	r.Shuffle(len(bodies), func(i, j int) { bodies[i], bodies[j] = bodies[j], bodies[i] })
	var bs bodyScratch
	got := make([]*Body, len(bodies))
	for i, s := range bodies {
		src := []byte(s)
		got[i] = parseBodyIn("a.md", src, 0, newLineIndex(src), &bs)
	}
	for i, s := range bodies {
		src := []byte(s)
		if want := parseBody("a.md", src, 0, newLineIndex(src)); !reflect.DeepEqual(got[i], want) {
			t.Fatalf("body %d read in the scratch differs from its own reading:\n%q\ngot  %+v\nwant %+v", i, s, got[i], want)
		}
	}
}

// FuzzBodyScratch: two bodies read one after the other in one scratch are each the body read
// alone. Run: go test ./okf -run '^$' -fuzz FuzzBodyScratch -fuzztime 1m
func FuzzBodyScratch(f *testing.F) {
	for i, s := range bodySeeds {
		f.Add(s, bodySeeds[(i+1)%len(bodySeeds)])
	}
	for i, s := range nearMisses {
		f.Add(s, bodySeeds[i%len(bodySeeds)])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		var bs bodyScratch
		srcA, srcB := []byte(a), []byte(b)
		gotA := parseBodyIn("a.md", srcA, 0, newLineIndex(srcA), &bs)
		gotB := parseBodyIn("b.md", srcB, 0, newLineIndex(srcB), &bs)
		if want := parseBody("a.md", srcA, 0, newLineIndex(srcA)); !reflect.DeepEqual(gotA, want) {
			t.Fatalf("first body differs from its own reading: %q", a)
		}
		if want := parseBody("b.md", srcB, 0, newLineIndex(srcB)); !reflect.DeepEqual(gotB, want) {
			t.Fatalf("second body differs from its own reading: %q after %q", b, a)
		}
	})
}

// TestBodyScratchKeepsNothingRefused: a body the fast path refuses after it grew the scratch's
// lists leaves none of its text reachable from them (a worker's scratch lives as long as the
// load: a large refused file's strings would stay with it).
func TestBodyScratchKeepsNothingRefused(t *testing.T) {
	var bs bodyScratch
	first := []byte("# A\n\n```\nx\n```\n\n[a](a.md)\n")
	parseBodyIn("a.md", first, 0, newLineIndex(first), &bs)
	big := "# B\n\n[b](b.md)\n\n```\n" + strings.Repeat("y", 1<<16) + "\n```\n\n<div>\n"
	src := []byte(big)
	parseBodyIn("b.md", src, 0, newLineIndex(src), &bs)
	for _, c := range bs.code[:cap(bs.code)] {
		if c.Content != "" || c.Section != "" {
			t.Errorf("the scratch keeps a code block of a refused body: %d bytes", len(c.Content))
		}
	}
	for _, l := range bs.links[:cap(bs.links)] {
		if l.Target != "" {
			t.Errorf("the scratch keeps a link of a refused body: %q", l.Target)
		}
	}
	for _, h := range bs.headings[:cap(bs.headings)] {
		if h.Text != "" {
			t.Errorf("the scratch keeps a heading of a refused body: %q", h.Text)
		}
	}
}
