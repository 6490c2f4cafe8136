package lint

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/schemas"
	"go.yaml.in/yaml/v3"
)

// TestShapeCacheCheckMatchesValidate: the built-in schema's violations, with error trees remembered
// by shape (shapeCache.check), are those of a fresh validation, on random frontmatters of the keys
// the schema constrains with values of every shape (empty and non-empty strings, negative,
// fractional and whole numbers, booleans, null, lists, mappings, nested entries).
func TestShapeCacheCheckMatchesValidate(t *testing.T) {
	base, err := schemas.Concept()
	if err != nil {
		t.Fatal(err)
	}
	cache := newShapeCache()
	checks, hits := 0, 0
	for i, fm := range randomFrontmatters(7, 4000) {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(fm), &doc); err != nil || len(doc.Content) == 0 {
			continue
		}
		n := doc.Content[0]
		want := base.Validate(n)
		before := len(cache.errs)
		got := base.ValidateWith(n, cache.check(base))
		checks++
		if len(cache.errs) == before {
			hits++
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("frontmatter %d:\n%s\nremembered: %+v\nfresh:      %+v", i, fm, got, want)
		}
	}
	// The test means something only if shapes repeat.
	if hits < checks/4 {
		t.Fatalf("only %d of %d validations reused a remembered shape", hits, checks)
	}
}

// randomFrontmatters returns count random frontmatters (YAML mappings, without the --- lines) of
// the keys the built-in schema constrains, with values of every shape (empty and non-empty strings,
// negative, fractional and whole numbers, booleans, null, lists, mappings, nested entries).
func randomFrontmatters(seed uint64, count int) []string {
	keys := []string{"type", "title", "description", "tags", "sources", "usage_window", "generated", "verified",
		"status", "stale_after", "runtime", "parameters", "computation", "executor", "attester", "okf_version",
		"timestamp", "resource", "x_custom"}
	scalars := []string{`""`, `s`, `"quoted text"`, `5`, `-3`, `-7`, `0`, `1.5`, `-0.5`, `true`, `null`, `2026-01-02`, `0x1F`, `~`}
	fields := []string{"id", "resource", "title", "author", "usage_count", "last_modified", "by", "at", "from", "to",
		"name", "type", "required", "receipt", "usage_window"}
	r := rand.New(rand.NewPCG(seed, seed+1))
	var value func(depth int) string
	value = func(depth int) string {
		switch k := r.IntN(10); {
		case k < 5 || depth > 2:
			return scalars[r.IntN(len(scalars))]
		case k < 7:
			var items []string
			for range r.IntN(3) {
				items = append(items, value(depth+1))
			}
			return "[" + strings.Join(items, ", ") + "]"
		default:
			var items []string
			for range r.IntN(4) {
				items = append(items, fields[r.IntN(len(fields))]+": "+value(depth+1))
			}
			return "{" + strings.Join(items, ", ") + "}"
		}
	}
	out := make([]string, 0, count)
	for range count {
		var b strings.Builder
		used := map[string]bool{}
		for range 1 + r.IntN(4) {
			k := keys[r.IntN(len(keys))]
			if used[k] {
				continue
			}
			used[k] = true
			v := value(0)
			if k == "sources" && r.IntN(3) > 0 {
				// A list of entries, where usage_count's minimum is checked.
				var items []string
				for range 1 + r.IntN(2) {
					items = append(items, fmt.Sprintf("{id: a, resource: r, usage_count: %s}", scalars[r.IntN(len(scalars))]))
				}
				v = "[" + strings.Join(items, ", ") + "]"
			}
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
		out = append(out, b.String())
	}
	return out
}

// benchLikeDocs are frontmatters of the shapes internal/bench generates (shape S: tags as a comma
// string, timestamps of every form, an empty generated.at; shape L: nested producer maps, quoted
// timestamps, sources lists), whose schema check takes the projection path.
var benchLikeDocs = []string{
	"---\ntype: Record\ntitle: Record 1\ndescription: One. Two.\ntags: filter, join, column\nresource: https://r.example/1\ntimestamp: 2025-02-12T14:01:11+02:00\ngenerated:\n  by: record-bot\n  at: 2025-07-07T01:12:49.373Z\nstatus: draft\n---\n",
	"---\ntype: Record\ntitle: Record 2\ndescription: One.\ntags: account, region\nresource: https://r.example/2\ntimestamp: 2025-06-04T11:21:39\ngenerated:\n  by: record-bot\n  at: \nstale_after: \"2025-07-14\"\nstatus: active\n---\n",
	"---\ntype: Record\ntitle: Record 3\ntags: a\ngenerated:\n  by: record-bot\n  at: 2025-09-04\nstale_after:\n---\n",
	"---\ntype: Page\ntitle: \"Page 7\"\ndescription: \"A page.\"\ntags: [a, b]\ngenerated:\n  by: wiki-gen/2.1\n  at: \"2026-01-02T03:04:05Z\"\n  model: {name: m, params: {t: 0.2, k: [1, 2]}}\nsources:\n  - {id: s1, resource: \"https://x.example\", usage_count: 3}\n  - id: s2\n    resource: https://y.example\n    last_modified: \"2025-01-01\"\n---\n",
	"---\ntitle: Untyped\n---\n",
}

// TestShapeCacheProjectionMatchesValidate: the built-in schema's violations of a concept, with the
// error tree taken from its projection (fresh, and remembered by shape as checkConcept does), are
// those of validating its YAML, on random frontmatters, the projection cases, the bench shapes and
// the corpus.
func TestShapeCacheProjectionMatchesValidate(t *testing.T) {
	base, err := schemas.Concept()
	if err != nil {
		t.Fatal(err)
	}
	docs := slices.Clone(projectionDocs)
	docs = append(docs, benchLikeDocs...)
	for _, fm := range randomFrontmatters(11, 4000) {
		if !strings.HasPrefix(fm, "type:") && !strings.Contains(fm, "\ntype:") {
			fm = "type: Metric\n" + fm
		}
		docs = append(docs, "---\n"+fm+"---\n")
	}
	docs = append(docs, corpusConceptDocs()...)
	cache := newShapeCache()
	usable, failing, hits := 0, 0, 0
	for i, doc := range docs {
		c, _ := okf.ParseConcept("x.md", []byte(doc))
		if !c.Conformant() {
			continue
		}
		v, ok := projection(c.Frontmatter)
		if !ok {
			continue
		}
		n, err := c.Frontmatter.Node()
		if err != nil {
			t.Fatal(err)
		}
		usable++
		want := base.Validate(n)
		if len(want) > 0 {
			failing++
		}
		if fresh := base.ViolationsOf(n, base.Check(v)); !reflect.DeepEqual(fresh, want) {
			t.Fatalf("doc %d, from the projection:\n%s\ngot:  %+v\nwant: %+v", i, doc, fresh, want)
		}
		before := len(cache.errs)
		if got := base.ViolationsOf(n, cache.verdict(base, v)); !reflect.DeepEqual(got, want) {
			t.Fatalf("doc %d, remembered by shape:\n%s\ngot:  %+v\nwant: %+v", i, doc, got, want)
		}
		if len(cache.errs) == before {
			hits++
		}
		// As checkConcept does: the map goes back for the next projection, while the error trees
		// remembered from it serve later documents.
		releaseProjection(v)
	}
	// The test means something only if most documents take the projection path, many of them fail
	// the schema, and shapes repeat.
	if usable < len(docs)/2 || failing < usable/4 || hits < usable/4 {
		t.Fatalf("%d documents, %d through the projection, %d failing, %d remembered", len(docs), usable, failing, hits)
	}
	t.Logf("%d documents, %d through the projection, %d failing, %d remembered", len(docs), usable, failing, hits)
}
