package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/schemas"
)

// TestProjectionKeyMatchesShape: the projection key of a frontmatter, read as JSON (a later key
// winning, as in the projection's map), has the shape of the projection itself (appendShape of
// both is the same), it is usable exactly where the projection is, and it asks for a fresh check
// exactly where the projection holds a negative number: on the projection cases, the bench shapes,
// random frontmatters (with duplicated keys) and the corpus.
func TestProjectionKeyMatchesShape(t *testing.T) {
	docs := slices.Clone(projectionDocs)
	docs = append(docs, benchLikeDocs...)
	for i, fm := range randomFrontmatters(23, 4000) {
		if i%7 == 0 {
			fm += strings.SplitAfter(fm, "\n")[0] // a key written twice
		}
		docs = append(docs, "---\ntype: Metric\n"+fm+"---\n")
	}
	docs = append(docs, corpusConceptDocs()...)
	usable := 0
	for i, doc := range docs {
		c, _ := okf.ParseConcept("x.md", []byte(doc))
		if !c.Conformant() {
			continue
		}
		v, ok := projection(c.Frontmatter)
		key, afresh, kok := appendProjectionKey(nil, c.Frontmatter)
		if kok != ok {
			t.Fatalf("doc %d: key usable %v, projection usable %v:\n%s", i, kok, ok, doc)
		}
		if !ok {
			continue
		}
		usable++
		d := json.NewDecoder(bytes.NewReader(key))
		d.UseNumber()
		var read any
		if err := d.Decode(&read); err != nil {
			t.Fatalf("doc %d: key %s is not JSON: %v", i, key, err)
		}
		if got, want := appendShape(nil, read), appendShape(nil, v); !bytes.Equal(got, want) {
			t.Fatalf("doc %d:\n%s\nkey:        %s\nread:       %s\nprojection: %s", i, doc, key, got, want)
		}
		if neg := hasNegative(v); afresh != neg {
			t.Fatalf("doc %d: afresh %v, negative number in the projection %v:\n%s", i, afresh, neg, doc)
		}
	}
	if usable < len(docs)/2 {
		t.Fatalf("only %d of %d documents were usable", usable, len(docs))
	}
}

// TestShapeVerdictRepeatedShapeBuildsNothing: the verdict of a frontmatter whose shape was seen
// before is one lookup, with no projection built (on S, every concept fails the schema by the
// same shape).
func TestShapeVerdictRepeatedShapeBuildsNothing(t *testing.T) {
	base, err := schemas.Concept()
	if err != nil {
		t.Fatal(err)
	}
	cache := newShapeCache()
	c, _ := okf.ParseConcept("x.md", []byte(benchLikeDocs[0]))
	first, ok := cache.verdictOf(base, c.Frontmatter)
	if !ok || first == nil {
		t.Fatalf("the bench shape should fail the schema through the projection: %v, %v", first, ok)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if err, ok := cache.verdictOf(base, c.Frontmatter); !ok || err != first {
			t.Fatalf("remembered verdict %v, %v; first %v", err, ok, first)
		}
	})
	if allocs > 0 {
		t.Fatalf("a remembered shape's verdict allocated %v times", allocs)
	}
}

// TestShapeCacheKeepsShortKeys: a shape key longer than maxShapeKey is not remembered (a hostile
// bundle of large frontmatters would otherwise hold maxShapes of them), and its verdict is still
// right.
func TestShapeCacheKeepsShortKeys(t *testing.T) {
	base, err := schemas.Concept()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("---\ntype: Metric\ntags: a, b\n")
	for i := range maxShapeKey / 8 {
		fmt.Fprintf(&b, "x_%05d: v\n", i)
	}
	b.WriteString("---\n")
	c, _ := okf.ParseConcept("x.md", []byte(b.String()))
	cache := newShapeCache()
	got, ok := cache.verdictOf(base, c.Frontmatter)
	if !ok || got == nil {
		t.Fatalf("tags as a string should fail the schema: %v, %v", got, ok)
	}
	if len(cache.errs) != 0 {
		t.Fatalf("%d verdicts remembered for a shape key over %d bytes", len(cache.errs), maxShapeKey)
	}
}
