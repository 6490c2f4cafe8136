package okf

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// parseGuarded parses src as the loader does, failing t when that takes over 10 seconds: a guard
// that keeps a failing run short (these shapes took seconds to minutes), not a measure. It
// returns the bytes the parse allocated too.
func parseGuarded(t *testing.T, src string) (*Concept, []Diagnostic, uint64) {
	t.Helper()
	type res struct {
		c     *Concept
		ds    []Diagnostic
		alloc uint64
	}
	done := make(chan res, 1)
	go func() {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		c, ds := ParseConcept("h.md", []byte(src))
		runtime.ReadMemStats(&m1)
		done <- res{c, ds, m1.TotalAlloc - m0.TotalAlloc}
	}()
	select {
	case r := <-done:
		return r.c, r.ds, r.alloc
	case <-time.After(10 * time.Second):
		t.Fatalf("parsing %d bytes took over 10 s", len(src))
		return nil, nil, 0
	}
}

// nested is open k times, the i-th time after indent repeated i times.
func nested(open, indent string, k int) string {
	var b strings.Builder
	for i := 0; i < k; i++ {
		b.WriteString(strings.Repeat(indent, i))
		b.WriteString(open)
	}
	return b.String()
}

// TestTameShapeClasses: each class of shape goldmark is superlinear on in time or memory, at a
// size that took it seconds (or hundreds of MB), is blanked with one finding at the line where
// the blanked text starts (skip lines into the shape), the rest of the body is still parsed (the
// link after it is found at its own line), and the parse allocates at most 256 bytes a byte of
// source (a line of 100 nested list items allocates 140 a byte; unclosed brackets took 400). fallback sends the body to goldmark where the fast path would take the shape.
func TestTameShapeClasses(t *testing.T) {
	for _, c := range []struct {
		name, text, msg string
		skip            int
	}{
		// Labels over the lines of one paragraph: lines that look like definitions but are not,
		// definitions after text, and the lines of a block quote, which form one paragraph.
		{"refdef angle", strings.Repeat("[a]: <\n", 60_000), "a paragraph with 60000 link labels over 60000 lines is not parsed", 0},
		{"refdef title", strings.Repeat("[a]: b \"\n", 60_000), "a paragraph with 60000 link labels over 60000 lines is not parsed", 0},
		{"refdef no destination", strings.Repeat("[a]:\n", 60_000), "a paragraph with 60000 link labels over 60000 lines is not parsed", 0},
		{"definitions after text", "x\n" + strings.Repeat("[a]: b\n", 40_000), "a paragraph with 40000 link labels over 40001 lines is not parsed", 0},
		{"quote labels", fallback + strings.Repeat("> [a]\n", 60_000), "a paragraph with 60000 link labels over 60000 lines is not parsed", 2},
		{"hashtag labels", strings.Repeat("#[a]\n", 60_000), "a paragraph with 60000 link labels over 60000 lines is not parsed", 0},
		{"indented item labels", "x\n" + strings.Repeat("        - [a]\n", 40_000), "a paragraph with 40000 link labels over 40001 lines is not parsed", 0},
		// Valid definitions, taken out of their paragraph one by one.
		{"definitions", strings.Repeat("[a]: b\n", 40_000), "a paragraph of 40000 link reference definitions over 40000 lines is not parsed", 0},
		// Emphasis over the lines of a block quote.
		{"quote emphasis", fallback + strings.Repeat("> *a_\n", 20_000), "a paragraph with 40000 emphasis markers (more than 5000) is not parsed", 2},
		// Nested brackets.
		{"brackets nested", strings.Repeat("[", 150_000) + strings.Repeat("]", 150_000), "a paragraph of deeply nested brackets is not parsed", 0},
		{"images nested", strings.Repeat("![", 80_000) + strings.Repeat("](b)", 80_000), "a paragraph of deeply nested brackets is not parsed", 0},
		{"brackets nested by references", strings.Repeat("[", 50_000) + strings.Repeat("][a]", 50_000), "a paragraph of deeply nested brackets is not parsed", 0},
		// Unclosed brackets (memory: 400 bytes each).
		{"destinations after spaces", strings.Repeat("[0]( <", 50_000), "a line with too many unfinished link destinations is not parsed", 0},
		{"brackets open", strings.Repeat("[", 1_000_000), "a paragraph with 1000000 unclosed brackets (more than 20000) is not parsed", 0},
		{"images open", strings.Repeat("![", 500_000), "a paragraph with 500000 unclosed brackets (more than 20000) is not parsed", 0},
		{"footnotes open", strings.Repeat("[^", 500_000), "a paragraph with 500000 unclosed brackets (more than 20000) is not parsed", 0},
		// Containers nested across lines, by indentation.
		{"lists nested", nested("- a\n", "  ", 1200), "1100 lines inside more than 100 nested block quotes and list items are not parsed", 100},
		{"empty items nested", nested("-\n", "  ", 1200), "1100 lines inside more than 100 nested block quotes and list items are not parsed", 100},
		{"ordered lists nested", nested("1. a\n", "   ", 1000), "900 lines inside more than 100 nested block quotes and list items are not parsed", 100},
		{"lists nested in a quote", "> " + strings.ReplaceAll(nested("- a\n", "  ", 1200), "\n", "\n> "), "1101 lines inside more than 100 nested block quotes and list items are not parsed", 99},
		{"items nested in continuation lines", "- a\n  text\n" + strings.ReplaceAll(nested("   - a\n", "   ", 1000), "\n", "\n  "), "901 lines inside more than 100 nested block quotes and list items are not parsed", 101},
		{"footnote definitions nested", nested("[^a]:\n", "    ", 600), "500 lines inside more than 100 nested block quotes and list items are not parsed", 100},
		{"footnote definitions on one line", strings.Repeat("[^a]: ", 50_000), "a line opening 50000 block quotes or list items (more than 100) is not parsed", 0},
		// Blank lines in open containers (memory: 24 bytes a line a container).
		{"blank lines in a list", fallback + "- a\n" + strings.Repeat("\n", 600_000), "a list followed by too many blank lines is not parsed", 2},
		{"blank lines in nested lists", strings.Repeat("- ", 100) + "a\n" + strings.Repeat("\n", 200_000), "a list followed by too many blank lines is not parsed", 0},
		// Lines at the depth limit, each costing goldmark depth² steps: past the file's budget.
		{"lines at the limit", strings.Repeat(strings.Repeat("- ", 100)+"a\n", 6000), "4000 lines past the file's budget of nested block quotes and list items are not parsed", 2000},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "---\ntype: R\n---\nBefore.\n\n" + c.text + "\n\nAfter [x](after.md).\n"
			got, ds, alloc := parseGuarded(t, src)
			if len(ds) != 1 || ds[0].Code != CodeUnreadable || int(ds[0].Pos.Line) != 6+c.skip || ds[0].Pos.Col != 1 ||
				ds[0].Message != "not read: "+c.msg+" (it would take the Markdown parser too long)" {
				t.Errorf("findings %.300v", ds)
			}
			afterLine := strings.Count(src[:strings.Index(src, "After")], "\n") + 1
			if len(got.Body.Links) != 1 || got.Body.Links[0].Target != "after.md" || int(got.Body.Links[0].Pos.Line) != afterLine {
				t.Errorf("links %.300v", got.Body.Links)
			}
			if alloc > 256*uint64(len(src)) {
				t.Errorf("%d bytes allocated for %d bytes of source", alloc, len(src))
			}
		})
	}
}

// TestTameBudgets: paragraphs each under a paragraph's bound, many of them, are bounded by the
// file's budget: the ones past it are blanked, each with its finding (once a budget is spent, any
// paragraph that would add to it is blanked).
func TestTameBudgets(t *testing.T) {
	for _, c := range []struct {
		name, para, msg string
		n               int
	}{
		{"unclosed brackets", strings.Repeat("[", 19_000), "a paragraph past the file's budget of unclosed brackets is not parsed", 20},
		{"definitions", strings.Repeat("[a]: b\n", 20_000), "a paragraph past the file's budget of link reference definitions is not parsed", 6},
		{"labels", strings.Repeat("[a]: <\n", 7000), "a paragraph past the file's budget of link labels is not parsed", 12},
		{"nested brackets", strings.Repeat("[", 1000) + strings.Repeat("]", 1000), "a paragraph past the file's budget of nested brackets is not parsed", 150},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "---\ntype: R\n---\n" + strings.Repeat(c.para+"\n\n", c.n) + "After [x](after.md).\n"
			got, ds, _ := parseGuarded(t, src)
			if len(ds) == 0 || len(ds) >= c.n {
				t.Fatalf("%d findings for %d paragraphs", len(ds), c.n)
			}
			for _, d := range ds {
				if d.Message != "not read: "+c.msg+" (it would take the Markdown parser too long)" {
					t.Errorf("finding %v", d)
				}
			}
			if got.Body == nil {
				t.Error("no body")
			}
		})
	}
}

// TestTameCorpusUntouched: no body of the real bundles is blanked, in any part.
func TestTameCorpusUntouched(t *testing.T) {
	bodies := corpusBodies(t)
	for _, b := range bodies {
		if _, found := tameBody([]byte(b), 0); found != nil {
			t.Errorf("blanked in a real body: %v\n%.200s", found, b)
		}
	}
	if len(bodies) == 0 {
		t.Skip("no corpus")
	}
	t.Logf("%d bodies", len(bodies))
}

// TestTameRealShapes: real text of the kinds the new bounds count is left alone: a long nested
// list, a long block quote with links and emphasis, many definitions with titles, a paragraph of
// links with nested brackets in their text.
func TestTameRealShapes(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\ntype: R\n---\n")
	for i := 0; i < 3000; i++ { // a table of contents four levels deep
		fmt.Fprintf(&b, "%s- [Section %d](s%d.md) — *about* it\n", strings.Repeat("  ", i%4), i, i)
	}
	b.WriteString("\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "> quoted line %d with a [link](q%d.md) and **bold** text\n", i, i)
	}
	b.WriteString("\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "[r%d]: https://example.com/%d \"Title %d\"\n", i, i, i)
	}
	b.WriteString("\n")
	b.WriteString(strings.Repeat("See [the [nested] text](n.md) and [another](m.md). ", 3000) + "\n\n")
	b.WriteString(strings.Repeat("        deeply indented code line\n", 3000) + "\n")
	c, ds := ParseConcept("ok.md", []byte(b.String()))
	if len(ds) != 0 {
		t.Errorf("findings on real text: %v", ds[:min(len(ds), 3)])
	}
	if len(c.Body.Links) != 3000+2000+6000 {
		t.Errorf("%d links", len(c.Body.Links))
	}
}
