package okf

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// joinInsideSplit is joinInside as it was before its fast path: the oracle.
func joinInsideSplit(dir, rel string) (string, bool) {
	var stack []string
	if !strings.HasPrefix(rel, "/") && dir != "" && dir != "." {
		stack = strings.Split(dir, "/")
	}
	for _, seg := range strings.Split(rel, "/") {
		switch seg {
		case "", ".":
		case "..":
			if len(stack) == 0 {
				return "", true
			}
			stack = stack[:len(stack)-1]
		default:
			stack = append(stack, seg)
		}
	}
	return strings.Join(stack, "/"), false
}

func checkJoinInside(t *testing.T, dir, rel string) {
	t.Helper()
	got, gotEsc := joinInside(dir, rel)
	want, wantEsc := joinInsideSplit(dir, rel)
	if got != want || gotEsc != wantEsc {
		t.Fatalf("joinInside(%q, %q) = %q, %v; want %q, %v", dir, rel, got, gotEsc, want, wantEsc)
	}
}

// TestJoinInsideMatchesSplit compares joinInside with the plain split-and-join version on random
// paths made of "..", ".", empty segments (so "//" and "/x") and names.
func TestJoinInsideMatchesSplit(t *testing.T) {
	segs := []string{"a", "b", "..", ".", "", "x.md", "...", ".a", "a."}
	r := rand.New(rand.NewPCG(3, 4))
	path := func() string {
		n := r.IntN(5)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = segs[r.IntN(len(segs))]
		}
		return strings.Join(parts, "/")
	}
	for _, dir := range []string{"", ".", "..", "/", "a", "a/b", "a//b", "a/./b", "/a"} {
		for _, rel := range []string{"", "/", "//", "/x", "//x", "x", "x/", "./x", "../x", "../../x", "a/../..", ".", ".."} {
			checkJoinInside(t, dir, rel)
		}
	}
	for range 200000 {
		checkJoinInside(t, path(), path())
	}
	// By hand.
	for _, c := range []struct {
		dir, rel, want string
		esc            bool
	}{
		{"docs", "b.md", "docs/b.md", false},
		{"docs", "/b.md", "b.md", false},
		{".", "sub/c.md", "sub/c.md", false},
		{"docs/x", "../b.md", "docs/b.md", false},
		{"docs", "../../b.md", "", true},
		{"", "/../b.md", "", true},
		{"docs", "", "docs", false},
	} {
		if got, esc := joinInside(c.dir, c.rel); got != c.want || esc != c.esc {
			t.Errorf("joinInside(%q, %q) = %q, %v; want %q, %v", c.dir, c.rel, got, esc, c.want, c.esc)
		}
	}
	// A link costs at most the one string it returns.
	for _, rel := range []string{"guide/b.md", "../b.md", "./x/../../b.md", "/b.md"} {
		if n := testing.AllocsPerRun(100, func() { joinInside("docs/sub", rel) }); n > 1 {
			t.Errorf("joinInside(docs/sub, %s): %v allocations, want at most 1", rel, n)
		}
	}
}

func FuzzJoinInside(f *testing.F) {
	f.Add("a/b", "../c")
	f.Add("", "/../x")
	f.Add(".", "//x/./y")
	f.Fuzz(func(t *testing.T, dir, rel string) {
		checkJoinInside(t, dir, rel)
	})
}
