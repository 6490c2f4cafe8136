package fastmd

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// The differential tests of the fast path against goldmark (FuzzBodyFast, TestBodyFastCorpus,
// TestIndexFast…, TestBodyScratch) are okf's: they compare okf's Body, which goldmark's reading
// makes too. The tests here are of the fast path's own parts.

// fileLines is a Lines over a whole file, counted naively.
type fileLines []byte

func (f fileLines) LineCol(off int) (line, col int32) {
	start := bytes.LastIndexByte(f[:off], '\n') + 1
	return int32(bytes.Count(f[:off], []byte("\n")) + 1), int32(utf8.RuneCount(f[start:off]) + 1)
}

// read reads body (at offset 0 of its file) in s.
func read(body string, s *Scratch) (*Result, bool) {
	src := []byte(body)
	r, _, _, ok := Read(src, 0, fileLines(src), s, false)
	return r, ok
}

// TestScratchKeepsNothingRefused: a body the fast path refuses after it grew the scratch's lists
// leaves none of its text reachable from them (a worker's scratch lives as long as the load: a
// large refused file's strings would stay with it).
func TestScratchKeepsNothingRefused(t *testing.T) {
	var s Scratch
	if _, ok := read("# A\n\n```\nx\n```\n\n[a](a.md)\n<!-- c -->\n", &s); !ok {
		t.Fatal("the first body was refused")
	}
	s.Done()
	big := "# B\n\n[b](b.md)\n\n```\n" + strings.Repeat("y", 1<<16) + "\n```\n\n<!-- d -->\n\n<script>\n"
	if _, ok := read(big, &s); ok {
		t.Fatal("the second body was taken: it must be refused (a script block)")
	}
	for _, c := range s.code[:cap(s.code)] {
		if c.Content != "" || c.Section != "" {
			t.Errorf("the scratch keeps a code block of a refused body: %d bytes", len(c.Content))
		}
	}
	for _, l := range s.links[:cap(s.links)] {
		if l.Target != "" {
			t.Errorf("the scratch keeps a link of a refused body: %q", l.Target)
		}
	}
	for _, h := range s.headings[:cap(s.headings)] {
		if h.Text != "" {
			t.Errorf("the scratch keeps a heading of a refused body: %q", h.Text)
		}
	}
	for _, c := range s.comments[:cap(s.comments)] {
		if c.Text != "" {
			t.Errorf("the scratch keeps a comment of a refused body: %q", c.Text)
		}
	}
	if s.res.Links != nil || s.res.CodeBlocks != nil {
		t.Error("the scratch's Result keeps the lists of a refused body")
	}
}

// TestScratchDone: once the caller is done, the scratch holds nothing of the body it read, and the
// next body read in it is read as in a scratch of its own.
func TestScratchDone(t *testing.T) {
	var s Scratch
	body := "# A\n\n```\nx\n```\n\n[a](a.md)\n\n# Citations\n\n- [c](https://c.example)\n\n<!-- c -->\n"
	if _, ok := read(body, &s); !ok {
		t.Fatal("the body was refused")
	}
	s.Done()
	for _, l := range s.links[:cap(s.links)] {
		if l.Target != "" {
			t.Errorf("the scratch keeps a link: %q", l.Target)
		}
	}
	for _, c := range s.citations[:cap(s.citations)] {
		if c.Text != "" {
			t.Errorf("the scratch keeps a citation: %q", c.Text)
		}
	}
	for _, c := range s.comments[:cap(s.comments)] {
		if c.Text != "" {
			t.Errorf("the scratch keeps a comment: %q", c.Text)
		}
	}
	r, ok := read("[b](b.md)\n", &s)
	if !ok || len(r.Links) != 1 || r.Links[0].Target != "b.md" || len(r.Headings) != 0 || len(r.Comments) != 0 || len(r.Citations) != 0 {
		t.Fatalf("the next body: %+v", r)
	}
}

// xorshift returns a small deterministic generator of ints in [0, n) (okf's tests have the same).
func xorshift(seed uint64) func(n int) int {
	r := seed
	return func(n int) int {
		r ^= r << 13
		r ^= r >> 7
		r ^= r << 17
		return int(r % uint64(n))
	}
}

// TestMaskCodeSpans compares maskCodeSpans with the rule read straight from the spec (from each
// opening run, search the rest of the text for a run of the same length) on random texts of
// backtick runs, letters and newlines.
func TestMaskCodeSpans(t *testing.T) {
	naive := func(s []byte) []byte {
		m := append([]byte(nil), s...)
		for i := 0; i < len(s); {
			if s[i] != '`' {
				i++
				continue
			}
			j := i
			for j < len(s) && s[j] == '`' {
				j++
			}
			end := -1
			for k := j; k < len(s); {
				if s[k] != '`' {
					k++
					continue
				}
				r := k
				for r < len(s) && s[r] == '`' {
					r++
				}
				if r-k == j-i {
					end = r
					break
				}
				k = r
			}
			if end < 0 {
				i = j
				continue
			}
			for k := i; k < end; k++ {
				if m[k] != '\n' {
					m[k] = 0
				}
			}
			i = end
		}
		return m
	}
	rnd := xorshift(3)
	for range 20000 {
		var b []byte
		for j := rnd(12); j > 0; j-- {
			b = append(b, []string{"`", "``", "```", "a", "b c", "\n", "["}[rnd(7)]...)
		}
		if got, want := maskCodeSpans(b), naive(b); !bytes.Equal(got, want) {
			t.Fatalf("%q: masked %q, want %q", b, got, want)
		}
	}
}
