package lint

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

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
	keys := []string{"type", "title", "description", "tags", "sources", "usage_window", "generated", "verified",
		"status", "stale_after", "runtime", "parameters", "computation", "executor", "attester", "okf_version",
		"timestamp", "resource", "x_custom"}
	scalars := []string{`""`, `s`, `"quoted text"`, `5`, `-3`, `-7`, `0`, `1.5`, `-0.5`, `true`, `null`, `2026-01-02`, `0x1F`, `~`}
	fields := []string{"id", "resource", "title", "author", "usage_count", "last_modified", "by", "at", "from", "to",
		"name", "type", "required", "receipt", "usage_window"}
	r := rand.New(rand.NewPCG(7, 8))
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
	cache := newShapeCache()
	checks, hits := 0, 0
	for i := range 4000 {
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
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(b.String()), &doc); err != nil || len(doc.Content) == 0 {
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
			t.Fatalf("frontmatter %d:\n%s\nremembered: %+v\nfresh:      %+v", i, b.String(), got, want)
		}
	}
	// The test means something only if shapes repeat.
	if hits < checks/4 {
		t.Fatalf("only %d of %d validations reused a remembered shape", hits, checks)
	}
}
