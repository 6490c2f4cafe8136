package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// displayPathPerFinding is displayPath as it was before the working directory was read once per
// run: the oracle newPathDisplay must agree with.
func displayPathPerFinding(root, p string) string {
	if p == "" {
		return p
	}
	full := filepath.Join(root, filepath.FromSlash(p))
	if !filepath.IsAbs(root) {
		if wd, err := os.Getwd(); err == nil {
			if abs, err := filepath.Abs(full); err == nil {
				if rel, err := filepath.Rel(wd, abs); err == nil {
					full = rel
				}
			}
		}
	}
	return filepath.ToSlash(full)
}

func TestPathDisplayMatchesPerFinding(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Skip("no working directory:", err)
	}
	parts := []string{"a", "b", "..", ".", "", "sub", "index.md", "c d.md"}
	word := func(r *rand.Rand, sep string) string {
		n := r.IntN(4)
		var w []string
		for range n {
			w = append(w, parts[r.IntN(len(parts))])
		}
		return strings.Join(w, sep)
	}
	roots := []string{"", ".", "..", "../..", "sub", "./sub/", "a/../b", wd, filepath.Dir(wd), string(filepath.Separator)}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		roots = append(roots, word(r, string(filepath.Separator)))
	}
	for _, root := range roots {
		show := newPathDisplay(root)
		for range 30 {
			p := word(r, "/")
			if r.IntN(5) == 0 {
				p = "/" + p
			}
			want := displayPathPerFinding(root, p)
			if got := show(p); got != want {
				t.Fatalf("root %q, path %q: got %q, want %q", root, p, got, want)
			}
			if got := show(p); got != want { // remembered
				t.Fatalf("root %q, path %q again: got %q, want %q", root, p, got, want)
			}
		}
	}
	// The familiar cases, by hand: a bundle in a sub-folder, the working directory, above it.
	sep := string(filepath.Separator)
	for _, c := range []struct{ root, p, want string }{
		{"sub", "a.md", "sub/a.md"},
		{".", "x/a.md", "x/a.md"},
		{"..", "a.md", "../a.md"},
		{".." + sep + filepath.Base(wd), "a.md", "a.md"},
		{sep + "abs" + sep + "b", "a.md", "/abs/b/a.md"},
	} {
		if filepath.Separator != '/' && filepath.IsAbs(c.root) != strings.HasPrefix(c.root, sep) {
			continue
		}
		if got := newPathDisplay(c.root)(c.p); got != c.want {
			t.Errorf("root %q, path %q: got %q, want %q", c.root, c.p, got, c.want)
		}
	}
}
