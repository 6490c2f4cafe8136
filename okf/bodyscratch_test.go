package okf

import (
	"math/rand"
	"reflect"

	"testing"
)

// TestBodyScratch: bodies parsed one after another in one loader worker's scratch (bodies
// refused by the fast path among them) are each the body read alone (in a scratch of its own),
// and stay so once the scratch has been reused for every other body: nothing a Body holds is the
// scratch's.
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
		if want := parseBodyIn("a.md", src, 0, newLineIndex(src), new(bodyScratch)); !reflect.DeepEqual(got[i], want) {
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
		if want := parseBodyIn("a.md", srcA, 0, newLineIndex(srcA), new(bodyScratch)); !reflect.DeepEqual(gotA, want) {
			t.Fatalf("first body differs from its own reading: %q", a)
		}
		if want := parseBodyIn("b.md", srcB, 0, newLineIndex(srcB), new(bodyScratch)); !reflect.DeepEqual(gotB, want) {
			t.Fatalf("second body differs from its own reading: %q after %q", b, a)
		}
	})
}
