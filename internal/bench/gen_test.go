package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// The generator writes the shapes the issue describes: every concept loads, one in ten of shape L
// has no type, shape S writes tags as one comma string, and links resolve.
func TestShapes(t *testing.T) {
	for _, shape := range []string{"L", "S", "D"} {
		dir := t.TempDir()
		if _, err := writeBundle(dir, shape, 120); err != nil {
			t.Fatal(err)
		}
		b, err := okf.LoadDir(dir, okf.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Concepts) != 120 {
			t.Fatalf("%s: %d concepts, want 120", shape, len(b.Concepts))
		}
		noType := 0
		for _, d := range b.Diagnostics {
			if d.Code == okf.CodeNoType {
				noType++
			}
		}
		want := 0
		if shape == "L" {
			want = 12
		}
		if noType != want {
			t.Errorf("%s: %d concepts without type, want %d", shape, noType, want)
		}
		c := b.Concepts[5]
		if shape == "S" && c.Frontmatter.Tags.Kind != okf.Scalar {
			t.Errorf("S: tags is %s, want one comma string", c.Frontmatter.Tags.Describe())
		}
		if shape == "L" {
			if len(c.Body.Links) != 8+4 || len(c.Body.Citations) != 5 {
				t.Errorf("L: %d links and %d citations, want 8 internal + 4 cited and 5", len(c.Body.Links), len(c.Body.Citations))
			}
			for _, l := range c.Body.Links {
				if okf.IsURL(l.Target) {
					continue
				}
				if r := b.ResolveLink(c.Path, l.Target); !r.Exists {
					t.Errorf("L: link %q of %s does not resolve", l.Target, c.Path)
				}
			}
		}
		if shape == "D" {
			// four titled heading anchors, six links in the text; three steps' indented code, a
			// fence in the third step and one indented block at the top level
			if len(c.Body.Links) != 4+6 || len(c.Body.CodeBlocks) != 5 || len(c.Body.Headings) != 4 {
				t.Errorf("D: %d links, %d code blocks, %d headings, want 10, 5 and 4", len(c.Body.Links), len(c.Body.CodeBlocks), len(c.Body.Headings))
			}
			for _, cb := range c.Body.CodeBlocks[:3] {
				if cb.Fenced || !strings.HasPrefix(cb.Content, "okf ") {
					t.Errorf("D: a step's command is read as %+v", cb)
				}
			}
		}
		src, _ := os.ReadFile(filepath.Join(dir, "s000", "p00001.md"))
		if shape == "L" && !strings.Contains(string(src), "started: \"2025-") {
			t.Errorf("L: timestamps are not quoted:\n%s", src)
		}
	}
}

func TestParseSizes(t *testing.T) {
	if _, err := parseSizes("L:10,S:5,D:3"); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"X:10", "L:0", "L", "L:ten"} {
		if _, err := parseSizes(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Shape G is court decisions: flat court folders, umlauts in names and text, generated and sources
// on every file, each decision's footnote defined.
func TestShapeG(t *testing.T) {
	dir := t.TempDir()
	if _, err := writeBundle(dir, "G", 100); err != nil {
		t.Fatal(err)
	}
	b, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Concepts) != 100 {
		t.Fatalf("%d concepts, want 100", len(b.Concepts))
	}
	umlaut := 0
	for _, c := range b.Concepts {
		if strings.ContainsAny(c.Path, "äöüß") {
			umlaut++
		}
		if c.Frontmatter.Generated == nil || len(c.Frontmatter.Sources.Items) != 1 {
			t.Fatalf("%s: generated %v, %d sources", c.Path, c.Frontmatter.Generated, len(c.Frontmatter.Sources.Items))
		}
		if strings.Count(c.Path, "/") != 1 {
			t.Errorf("%s: not in a flat court folder", c.Path)
		}
		for _, r := range c.Body.FootnoteRefs {
			if !r.Defined {
				t.Errorf("%s: footnote %q not defined", c.Path, r.Label)
			}
		}
	}
	if umlaut == 0 {
		t.Error("no file name holds an umlaut")
	}
}
