package okf

import (
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzParseConcept feeds arbitrary text to the parser: it must never panic, and every position it
// reports must lie inside the file.
func FuzzParseConcept(f *testing.F) {
	for _, s := range []string{
		"---\ntype: Metric\n---\n# T\n\n[a](b.md)[^x]\n\n[^x]: y\n",
		"\ufeff---\r\ntype: X\r\n---\r\n",
		"---\ntype: [\n---\n",
		"---\n----\n",
		"---\nverified: {by: human:a, at: 2026-01-01}\nsources: [{id: a}]\n---\n```sql\nSELECT 1\n```\n",
		"# Citations\n\n- https://x.example\n",
		"---\n&a [1]\n---\n",
		"---\nk: *a\n---\n",
		" --- \t\ntype: X\n\t---\r\nbody",
		"---\nverified: [human:a, {by: b/1, at: x}]\n---\n",
		"---\nb: &b {type: X, <<: {title: T}}\n<<: [*b, {status: draft}]\ngenerated: {<<: *b, by: a/1}\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var c *Concept
		var diags []Diagnostic
		done := make(chan struct{})
		go func() { c, diags = ParseConcept("f.md", src); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Fatalf("parsing %d bytes took over 2s: %q", len(src), src)
		}
		if c == nil {
			t.Fatal("nil concept")
		}
		lines := 1
		for _, b := range src {
			if b == '\n' {
				lines++
			}
		}
		check := func(p Position) {
			if p.Line < 0 || int(p.Line) > lines {
				t.Fatalf("position %v outside a %d-line file", p, lines)
			}
		}
		for _, d := range diags {
			check(d.Pos)
		}
		if utf8.Valid(src) {
			for _, l := range c.Body.Links {
				check(l.Pos)
			}
			for _, h := range c.Body.Headings {
				check(h.Pos)
			}
			for _, r := range c.Body.FootnoteRefs {
				check(r.Pos)
			}
		}
	})
}
