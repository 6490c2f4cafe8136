package okf

import (
	"fmt"
	"path"
	"strings"
	"testing"
)

// aliasBomb is a "billion laughs" block: nine anchors, each a list of nine aliases to the one
// before, so the last expands to 9⁹ (387 million) values from under 700 bytes.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("type: Reference\na0: &a0 [x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func TestAliasBombIsUnparseable(t *testing.T) {
	yaml := aliasBomb()
	if len(yaml) > 700 {
		t.Fatalf("bomb is %d bytes", len(yaml))
	}
	c, ds := ParseConcept("bomb.md", []byte("---\n"+yaml+"---\n"))
	if c.Frontmatter.Present || len(ds) != 1 || ds[0].Code != CodeInvalidYAML ||
		ds[0].Message != "frontmatter is not valid YAML: alias *a5 expands to more than 100000 values (an alias bomb?): not read" || ds[0].Pos.Line != 9 { // a6 lists aliases to a5, which alone expands to about 600,000 values
		t.Fatalf("present %v, diagnostics %v", c.Frontmatter.Present, ds)
	}
	// Many aliases each within the bound, adding up past it, are refused as a whole.
	var many strings.Builder
	many.WriteString("---\ntype: R\nbig: &b [" + strings.Repeat("x, ", 999) + "x]\nuses: [")
	for i := 0; i < 101; i++ {
		many.WriteString("*b, ")
	}
	many.WriteString("*b]\n---\n")
	if _, ds := ParseConcept("many.md", []byte(many.String())); len(ds) != 1 || !strings.Contains(ds[0].Message, "aliases expand to more than 100000 values beyond those written") || ds[0].Pos.Line != 2 {
		t.Errorf("many aliases: %v", ds)
	}
	// Within the bound, aliases are fine: 9³ values from three levels.
	small := "type: Reference\na0: &a0 [x, x, x, x, x, x, x, x, x]\na1: &a1 [*a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0]\na2: [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1]\n"
	if c, ds := ParseConcept("ok.md", []byte("---\n"+small+"---\n")); !c.Frontmatter.Present || len(ds) != 0 {
		t.Errorf("small aliases: %v", ds)
	}
}

func TestAliasCycleIsUnparseable(t *testing.T) {
	for _, src := range []string{
		"type: &x [*x]\n",
		"type: R\na: &x {b: [1, *x]}\n",
		"type: R\na: &x\n  b: &y\n    c: *x\n",
	} {
		c, ds := ParseConcept("c.md", []byte("---\n"+src+"---\n"))
		if c.Frontmatter.Present || len(ds) != 1 || ds[0].Code != CodeInvalidYAML || !strings.Contains(ds[0].Message, "alias *x is inside the value it refers to") {
			t.Errorf("%q: present %v, diagnostics %v", src, c.Frontmatter.Present, ds)
		}
	}
	// An alias after its anchor, outside it, is no cycle.
	if c, ds := ParseConcept("c.md", []byte("---\ntype: &t R\nb: *t\nc: &m {d: 1}\ne: *m\n---\n")); !c.Frontmatter.Present || len(ds) != 0 {
		t.Errorf("plain aliases: %v", ds)
	}
	// An undefined alias is unparseable too, not "no type".
	c, ds := ParseConcept("u.md", []byte("---\ntype: *nope\n---\n"))
	if c.Frontmatter.Present || len(ds) != 1 || ds[0].Code != CodeInvalidYAML || !strings.Contains(ds[0].Message, "nope") {
		t.Errorf("undefined alias: %v", ds)
	}
}

// TestManyKeysDuplicate: 40,000 keys (pairwise comparison took seconds) with one duplicate at the
// end is found, naming both lines.
func TestManyKeysDuplicate(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\ntype: Reference\n")
	for i := 0; i < 40000; i++ {
		fmt.Fprintf(&b, "k%d: v\n", i)
	}
	b.WriteString("k7: again\n---\n")
	_, ds := ParseConcept("many.md", []byte(b.String()))
	want := fmt.Sprintf("frontmatter is not valid YAML: key %q written twice (first on line %d)", "k7", 10)
	if len(ds) != 1 || ds[0].Message != want || ds[0].Pos.Line != 40003 {
		t.Errorf("diagnostics %v; want %q at line 40003", ds, want)
	}
}

func BenchmarkManyKeys(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("---\ntype: Reference\n")
	for i := 0; i < 40000; i++ {
		fmt.Fprintf(&sb, "k%d: v\n", i)
	}
	sb.WriteString("---\n")
	src := []byte(sb.String())
	for b.Loop() {
		ParseConcept("many.md", src)
	}
}

// refGlob is the plain recursive reading of "**" (exponential on hostile patterns): the reference
// globMatch must agree with on small inputs.
func refGlob(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if refGlob(rest, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

func TestGlobAgreesWithReference(t *testing.T) {
	pats := []string{"**", "a", "**/a", "a/**", "a/**/b", "**/b/**", "*/b", "**/**/b", "a/*/**/c", "[ab]/**", "a?c/**/d*", "**/[", ""}
	paths := []string{"a", "b", "a/b", "a/b/c", "x/a/b", "a/x/y/b", "abc/d", "abc/q/dd", "b/b/b", "a/c", "["}
	for _, p := range pats {
		for _, s := range paths {
			ps, ss := strings.Split(p, "/"), strings.Split(s, "/")
			if got, want := globMatch(ps, ss), refGlob(ps, ss); got != want {
				t.Errorf("globMatch(%q, %q) = %v, reference %v", p, s, got, want)
			}
		}
	}
}

// TestGlobHostilePattern: forty "**" segments against a path of forty segments that does not match
// (the recursive reading tries on the order of 80-choose-40 splits) ends, and says no.
func TestGlobHostilePattern(t *testing.T) {
	pat := strings.Repeat("**/", 40) + "b"
	p := strings.Repeat("a/", 40) + "c"
	ig := ParseIgnore([]byte(pat + "\n"))
	if ig.Match(p, false) {
		t.Error("matched")
	}
	if !ig.Match(strings.Repeat("a/", 40)+"b", false) {
		t.Error("did not match")
	}
}

// TestIgnoreLongLine: a pattern line over 64 KiB does not end the list (bufio.Scanner's limit).
func TestIgnoreLongLine(t *testing.T) {
	ig := ParseIgnore([]byte(strings.Repeat("x", 100<<10) + "\nsecret.md\n"))
	if !ig.Match("secret.md", false) {
		t.Error("the pattern after a long line was lost")
	}
}

// FuzzGlob checks the table-driven matcher against the recursive reading on small inputs.
func FuzzGlob(f *testing.F) {
	f.Add("**/a", "x/y/a")
	f.Add("a/**/b", "a/b")
	f.Add("**/**/b", "b/b")
	f.Add("*/[ab]?/**", "q/bz/1/2")
	f.Add("a\\*/**", "a*/x")
	f.Fuzz(func(t *testing.T, pattern, p string) {
		ps, ss := strings.Split(pattern, "/"), strings.Split(p, "/")
		if len(ps) > 12 || len(ss) > 12 {
			return // the reference is exponential
		}
		if got, want := globMatch(ps, ss), refGlob(ps, ss); got != want {
			t.Errorf("globMatch(%q, %q) = %v, reference %v", pattern, p, got, want)
		}
		ig := ParseIgnore([]byte(pattern))
		ig.Match(p, false)
		ig.Match(p, true)
	})
}

// TestFootnotesInCodeInDefinitions: references inside code, whether the code comes before the
// references or inside a footnote definition (which goldmark walks last), are not references.
func TestFootnotesInCodeInDefinitions(t *testing.T) {
	src := "---\ntype: R\n---\nText [^a].\n\n[^a]: See:\n\n    para\n\n        [^inside] code\n\nAfter [^b].\n\n    [^code] indented\n"
	c, _ := ParseConcept("f.md", []byte(src))
	var got []string
	for _, r := range c.Body.FootnoteRefs {
		got = append(got, r.Label)
	}
	if strings.Join(got, " ") != "a b" {
		t.Errorf("references %v; want a b", got)
	}
}

// TestFootnotesManyCodeBlocks: a body alternating code blocks and references is linear (a generous
// run of 20,000 pairs; the per-line scan of every code range made this 400 million checks).
func TestFootnotesManyCodeBlocks(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\ntype: R\n---\n")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, "```\n[^c%d]\n```\n\nx [^r%d]\n\n", i, i)
	}
	c, _ := ParseConcept("f.md", []byte(b.String()))
	if len(c.Body.FootnoteRefs) != 20000 || c.Body.FootnoteRefs[0].Label != "r0" {
		t.Errorf("%d references", len(c.Body.FootnoteRefs))
	}
}

// TestFootnotesManyReferences: 40,000 references in one paragraph and 40,000 definitions (goldmark's
// own reference parser made this quadratic) are all found, each defined; a label defined twice
// takes its first definition, and an undefined one stays text.
func TestFootnotesManyReferences(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\ntype: R\n---\n")
	for i := 0; i < 40000; i++ {
		fmt.Fprintf(&b, "[^s%d]\n", i)
	}
	b.WriteString("[^none]\n\n")
	for i := 0; i < 40000; i++ {
		fmt.Fprintf(&b, "[^s%d]: see [x](x%d.md)\n", i, i)
	}
	c, _ := ParseConcept("f.md", []byte(b.String()))
	if len(c.Body.FootnoteRefs) != 40001 || len(c.Body.FootnoteDefs) != 40000 || !c.Body.FootnoteRefs[39999].Defined || c.Body.FootnoteRefs[40000].Defined {
		t.Fatalf("%d references, %d definitions", len(c.Body.FootnoteRefs), len(c.Body.FootnoteDefs))
	}
	// Links inside referenced definitions are kept, as goldmark's extension keeps them.
	if len(c.Body.Links) != 40000 {
		t.Errorf("%d links", len(c.Body.Links))
	}
}
