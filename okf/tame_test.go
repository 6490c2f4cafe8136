package okf

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestTameHostileShapes: each shape goldmark is superlinear on is blanked with one finding at its
// line, quickly, and the rest of the body is still parsed (the link after it is found, at its own
// line: offsets are unchanged).
func TestTameHostileShapes(t *testing.T) {
	for name, c := range map[string]struct{ text, msg string }{
		"quotes":   {strings.Repeat(">", 100_000) + " x", "a line opening 100000 block quotes or list items (more than 100) is not parsed"},
		"lists":    {strings.Repeat("- ", 50_000) + "x", "a line opening 50000 block quotes or list items (more than 100) is not parsed"},
		"links":    {strings.Repeat("[a](", 50_000), "a line with too many unfinished link destinations is not parsed"},
		"angle":    {strings.Repeat("[a](<", 50_000), "a line with too many unfinished link destinations is not parsed"},
		"emphasis": {strings.Repeat("*a_", 50_000), "a paragraph with 100000 emphasis markers (more than 5000) is not parsed"},
		"labels":   {strings.Repeat(strings.Repeat("[a]", 200)+"\n", 2000), "a paragraph with 400000 link labels over 2000 lines is not parsed"},
	} {
		src := "---\ntype: R\n---\nBefore.\n\n" + c.text + "\n\nAfter [x](after.md).\n"
		got, ds := ParseConcept("h.md", []byte(src))
		if len(ds) != 1 || ds[0].Code != CodeUnreadable || ds[0].Pos.Line != 6 || ds[0].Pos.Col != 1 ||
			ds[0].Message != "not read: "+c.msg+" (it would take the Markdown parser too long)" {
			t.Errorf("%s: %v", name, ds)
		}
		afterLine := strings.Count(src[:strings.Index(src, "After")], "\n") + 1
		if len(got.Body.Links) != 1 || got.Body.Links[0].Target != "after.md" || int(got.Body.Links[0].Pos.Line) != afterLine {
			t.Errorf("%s: links %+v", name, got.Body.Links)
		}
	}
}

// TestTameLeavesRealTextAlone: long lines of real links, tables of bold cells and nested quotes of
// real depth are parsed as they are.
func TestTameLeavesRealTextAlone(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\ntype: R\n---\n")
	b.WriteString(strings.Repeat("[a](a.md)", 5000) + "\n\n")       // 45 KB of links, no space
	b.WriteString(strings.Repeat("[a](a.md) ", 5000) + "\n\n")      // and with spaces
	b.WriteString(strings.Repeat("| **x** | _y_ |\n", 1000) + "\n") // a table with 4000 emphasis runs
	b.WriteString(strings.Repeat("> ", 20) + "deep quote [q](q.md)\n\n")
	b.WriteString(strings.Repeat("- [i](i.md)\n", 20000) + "\n")      // an index of 20,000 entries
	b.WriteString(strings.Repeat("snake_case_name ", 20000) + "\n\n") // identifiers, not emphasis
	// 20,000 reference definitions, then a line using them all.
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, "[r%d]: r.md\n", i)
	}
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, "[r%d] ", i)
	}
	b.WriteString("\n")
	c, ds := ParseConcept("ok.md", []byte(b.String()))
	if len(ds) != 0 {
		t.Errorf("findings on real text: %v", ds[:min(len(ds), 3)])
	}
	if len(c.Body.Links) != 50001 {
		t.Errorf("%d links", len(c.Body.Links))
	}
	if src := []byte("plain\n"); func() bool { out, f := tameBody(src, 0); return &out[0] != &src[0] || f != nil }() {
		t.Error("a clean body was copied")
	}
}

func TestLinkScanCost(t *testing.T) {
	for line, want := range map[string]int64{
		"[a](b)":        1, // "b", stopped by its )
		"[a](b c)":      1, // stopped by the space
		"[a](<b c>)":    4, // "<b c" up to >
		"[a](b(c)d)e":   5, // "b(c)d" balanced, then the closing )
		"[a](":          0,
		"[a](bc":        2, // to the end of the line
		"[a]( b c)":     1, // the spaces after ( are skipped
		"[a]( <b":       2, // then to the end of the line, no >
		"[a](   ":       0,
		"x](y](z)":      6, // "y](z)" for the first (the ) closes the second's (), then "z"
		"no links here": 0,
	} {
		if got := linkScanCost([]byte(line)); got != want {
			t.Errorf("linkScanCost(%q) = %d, want %d", line, got, want)
		}
	}
}

// FuzzTame: blanking never moves a byte: the output has the input's length and line ends, and
// differs only by spaces.
func FuzzTame(f *testing.F) {
	f.Add([]byte("[a](b) *x* > q\n\n- [i](i.md)\n"))
	f.Add([]byte(strings.Repeat(">", 200) + "\n" + strings.Repeat("[a](", 2000)))
	f.Fuzz(func(t *testing.T, src []byte) {
		out, found := tameBody(src, 0)
		if len(out) != len(src) {
			t.Fatalf("length %d, want %d", len(out), len(src))
		}
		for i := range src {
			if out[i] != src[i] && (out[i] != ' ' || src[i] == '\n' || src[i] == '\r') {
				t.Fatalf("byte %d: %q became %q", i, src[i], out[i])
			}
		}
		if len(src) > 0 && found == nil && &out[0] != &src[0] {
			t.Fatal("copied without finding anything")
		}
		linkScanCost(src)
	})
}

// TestParseBodyTamesAsLoader: ParseBody, which lint's --fix calls on an index's raw text, leaves out
// the hostile shapes the loader leaves out, so it reads exactly the body a load reads (and in linear
// time). The link written inside each hostile line is not read by either.
func TestParseBodyTamesAsLoader(t *testing.T) {
	for name, text := range map[string]string{
		"quotes": strings.Repeat(">", 100_000) + " [q](q.md)",
		"lists":  strings.Repeat("- ", 50_000) + "[q](q.md)",
		"links":  strings.Repeat("[a](", 50_000) + " [q](q.md)",
	} {
		src := "---\ntype: R\n---\nBefore.\n\n" + text + "\n\nAfter [x](after.md).\n"
		c, _ := ParseConcept("h.md", []byte(src))
		got := ParseBody("h.md", []byte(src), len("---\ntype: R\n---\n"))
		if !reflect.DeepEqual(got, c.Body) {
			t.Errorf("%s: ParseBody read %+v, the loader %+v", name, got.Links, c.Body.Links)
		}
		if len(got.Links) != 1 || got.Links[0].Target != "after.md" {
			t.Errorf("%s: links %+v", name, got.Links)
		}
	}
}
