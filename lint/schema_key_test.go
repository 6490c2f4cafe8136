package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/schemas"
	"go.yaml.in/yaml/v3"
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
	first, ok := cache.planOf(base, c.Frontmatter)
	if !ok || first == nil {
		t.Fatalf("the bench shape should fail the schema through the projection: %v, %v", first, ok)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if err, ok := cache.planOf(base, c.Frontmatter); !ok || err != first {
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
	got, ok := cache.planOf(base, c.Frontmatter)
	if !ok || got == nil {
		t.Fatalf("tags as a string should fail the schema: %v, %v", got, ok)
	}
	if len(cache.errs) != 0 {
		t.Fatalf("%d verdicts remembered for a shape key over %d bytes", len(cache.errs), maxShapeKey)
	}
}

// TestRepeatedFailingShapeRebuildsOnlyPositions: a concept failing the built-in schema by a shape
// seen before gets its findings from the remembered plan (positions read from its own YAML) and
// the remembered message strings: a few allocations, where reading the error tree afresh made a
// dozen, and the same findings as a fresh check, at its own positions.
func TestRepeatedFailingShapeRebuildsOnlyPositions(t *testing.T) {
	base, err := schemas.Concept()
	if err != nil {
		t.Fatal(err)
	}
	cache := newShapeCache()
	parse := func(doc string) (*okf.Concept, func() (*yaml.Node, error)) {
		c, _ := okf.ParseConcept("x.md", []byte(doc))
		n, err := c.Frontmatter.Node()
		if err != nil {
			t.Fatal(err)
		}
		return c, func() (*yaml.Node, error) { return n, nil }
	}
	first, node1 := parse(benchLikeDocs[0])
	ds1 := checkConcept(first, base, nil, cache, node1)
	// The same shape, its values elsewhere: a comment line before tags, and tags a date, not a string.
	second, node2 := parse(strings.Replace(benchLikeDocs[0], "tags: filter, join, column\n", "# a note\ntags: 2025-01-02\n", 1))
	got := checkConcept(second, base, nil, cache, node2)
	n2, _ := node2()
	var want []okf.Diagnostic
	for _, v := range base.Validate(n2) {
		want = append(want, okf.Diagnostic{Pos: okf.Position{Path: "x.md", Line: int32(v.Line), Col: int32(v.Col)},
			End: okf.Position{Path: "x.md", Line: int32(v.EndLine), Col: int32(v.EndCol)}, Code: codeSchemaMismatch,
			Severity: okf.Warning, Message: v.Path + ": " + v.Message})
	}
	if len(ds1) == 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("remembered shape:\ngot:  %+v\nwant: %+v", got, want)
	}
	if !strings.Contains(got[0].Message, "found a date") || got[0].Pos.Line == ds1[0].Pos.Line {
		t.Fatalf("the finding should be at the second concept's tags and name a date: %+v", got[0])
	}
	if unsafe.StringData(got[0].Message) == unsafe.StringData(ds1[0].Message) {
		t.Fatal("a date and a string were given one message")
	}
	third, node3 := parse(strings.Replace(benchLikeDocs[0], "tags: filter, join, column\n", "tags: other\n", 1))
	allocs := testing.AllocsPerRun(100, func() { checkConcept(third, base, nil, cache, node3) })
	ds3 := checkConcept(third, base, nil, cache, node3)
	if unsafe.StringData(ds3[0].Message) != unsafe.StringData(ds1[0].Message) {
		t.Fatal("equal schema messages of two concepts are two strings")
	}
	t.Logf("%v allocations", allocs)
	if allocs > 3 {
		t.Fatalf("a remembered failing shape took %v allocations", allocs)
	}
}

// TestShapeCacheMessagesBounded: the schema messages a run shares are at most maxMessages, each at
// most maxWords long (a hostile bundle's paths and type names make new, long ones), and a message
// past either bound is still the right one.
func TestShapeCacheMessagesBounded(t *testing.T) {
	cache := newShapeCache()
	long := strings.Repeat("k", maxWords)
	if got := cache.message("", long, "m"); got != long+": m" || len(cache.msgs) != 0 {
		t.Fatalf("a message over %d bytes: %d remembered", maxWords, len(cache.msgs))
	}
	for i := range maxMessages + 10 {
		where := fmt.Sprintf("x_%d", i)
		if got := cache.message("p: ", where, "m"); got != "p: "+where+": m" {
			t.Fatalf("message %d: %q", i, got)
		}
	}
	if len(cache.msgs) != maxMessages {
		t.Fatalf("%d messages remembered, the bound is %d", len(cache.msgs), maxMessages)
	}
}
